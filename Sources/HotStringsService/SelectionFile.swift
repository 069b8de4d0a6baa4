import LinuxSystem

/// The selected app language, persisted in the state directory so a restart keeps it.
///
/// One file per bundle (`selected-language-<hash of the root>`), saved atomically: a temporary file beside it
/// (`.selected-language-<hash>.tmp-<pid>-<random>`), renamed over it.
package struct SelectionFile: Sendable {
    /// The state directory.
    package let directory: String
    /// The file's name inside `directory`.
    package let name: String
    /// The file holding the language tag (no file, or an empty one: nothing selected).
    package var path: String { directory + "/" + name }

    /// A selection file for the bundle at `root` inside `directory`; touches nothing on disk.
    package init(directory: String, root: String) {
        self.directory = directory
        name = StateFile(directory: directory, prefix: "selected-language-", root: root).name
    }

    /// Makes the state directory ready at start: creates it with its missing parents (mode 0700), and removes
    /// temporary files a killed process left behind (those of processes that are gone, so a second daemon
    /// on the same bundle keeps its save in progress).
    ///
    /// - Throws: `SystemError` when the directory cannot be created; leftovers that cannot be removed are
    ///   left alone (a later save does not depend on them).
    package func prepare() throws(SystemError) {
        try StateDirectory.create(atPath: directory)
        let prefix = "." + name + ".tmp-"
        guard let entries = try? FileSystem.listDirectory(atPath: directory) else { return }
        for entry in entries where entry.name.hasPrefix(prefix) && entry.kind == .file {
            let pid = entry.name.dropFirst(prefix.count).prefix { $0 != "-" }
            if !pid.isEmpty, (try? FileSystem.status(atPath: "/proc/" + pid)) != nil { continue }
            try? FileSystem.removeFile(atPath: directory + "/" + entry.name)
        }
    }

    /// The saved selection, if any.
    package func read() -> String? {
        guard let bytes = try? FileSystem.readFile(atPath: path, maximumSize: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        return text.isEmpty ? nil : text
    }

    /// Saves the selection atomically (write beside, rename over); `nil` saves "nothing selected".
    /// - Throws: `SystemError` naming the step and path that failed (a full disk, a directory in the file's
    ///   place, a directory that is gone or not writable).
    package func write(_ language: String?) throws(SystemError) {
        try FileSystem.writeFileAtomically(Array(((language ?? "") + "\n").utf8), toPath: path, mode: 0o600)
    }
}

/// Creating the daemon's state directory.
package enum StateDirectory {
    /// Creates `path` and its missing parents with mode 0700 (`mkdir -p -m 0700`, the mode for every
    /// directory it creates); existing directories are left as they are.
    /// - Throws: `SystemError` naming the component that could not be created, or `.notDirectory` for one
    ///   that exists and is no directory.
    package static func create(atPath path: String) throws(SystemError) {
        try FileSystem.makeDirectories(atPath: path, mode: 0o700)
    }
}

/// A file of one bundle's state in the state directory: `<prefix><hash of the root>` (FNV-1a, so the
/// bundles a state directory serves do not share files).
package struct StateFile: Sendable {
    /// The state directory.
    package let directory: String
    /// The file's name inside `directory`.
    package let name: String
    /// The file's path.
    package var path: String { directory + "/" + name }

    /// The file named `prefix` and the hash of `root`, in `directory`; touches nothing on disk.
    package init(directory: String, prefix: String, root: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in root.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        self.directory = directory
        name = prefix + String(hash, radix: 16)
    }
}
