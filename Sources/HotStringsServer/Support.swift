import HotStringsProtocol
import LinuxSystem
import StringsFormat
import StringsStore
import Synchronization

/// Facts about this build of the server.
package enum ServerInfo {
    /// The version reported by `hello` and `--version`.
    package static let version = "0.1.0"
}

/// Store values in the protocol's payload shapes (shared by the daemon and the embedded transport).
package enum Payloads {
    /// A store change as a `reload` event's change.
    package static func change(_ change: TableChange) -> ChangePayload {
        ChangePayload(
            language: change.language, table: change.table, file: change.file,
            kind: ChangePayload.Kind(rawValue: change.kind.rawValue) ?? .updated,
            added: change.added.map { ($0.key, $0.value) }, changed: change.changed.map { ($0.key, $0.value) },
            removed: change.removed
        )
    }

    /// A stored table as a `snapshot` event's table.
    package static func table(_ snapshot: TableSnapshot) -> TablePayload {
        TablePayload(
            language: snapshot.id.language.identifier, table: snapshot.id.table, file: snapshot.file,
            entries: snapshot.table.entries.map { ($0.key, $0.value) }
        )
    }
}

/// The selected app language, persisted in the state directory so a restart keeps it.
package struct SelectionFile: Sendable {
    /// The file holding the language tag (no file: nothing selected).
    package let path: String

    /// A selection file for the bundle at `root` inside `directory` (one file per bundle).
    package init(directory: String, root: String) {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in root.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        path = directory + "/selected-language-" + String(hash, radix: 16)
    }

    /// The saved selection, if any.
    package func read() -> String? {
        guard let bytes = try? FileSystem.readFile(atPath: path, maximumSize: 4096) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        return text.isEmpty ? nil : text
    }

    /// Saves the selection atomically (write beside, rename over); `nil` saves "nothing selected".
    package func write(_ language: String?) throws(SystemError) {
        try FileSystem.writeFileAtomically(Array(((language ?? "") + "\n").utf8), toPath: path, mode: 0o600)
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}

/// What a subscriber asked for: languages and tables, nil for all (the daemon and the embedded transport).
package struct SubscriptionFilter: Hashable, Sendable {
    /// Canonical language tags, or nil for all.
    package var languages: Set<String>?
    /// Table names, or nil for all.
    package var tables: Set<String>?

    /// A filter from a `subscribe` request: language tags are canonicalized, unknown spellings dropped.
    package init(_ subscription: HotStringsProtocol.Subscription) {
        languages = subscription.languages.map { Set($0.compactMap { LanguageTag($0)?.identifier }) }
        tables = subscription.tables.map(Set.init)
    }

    /// Whether changes to `table` in `language` reach this subscriber.
    package func includes(language: String, table: String) -> Bool {
        (languages?.contains(language) ?? true) && (tables?.contains(table) ?? true)
    }
}
