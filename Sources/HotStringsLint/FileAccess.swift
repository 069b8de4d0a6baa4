import Foundation

/// A file or folder that could not be read, with the operating system's reason (`No such file or directory`).
package struct FileSystemError: Error, Sendable, Equatable {
    /// The path as the user wrote it.
    package var path: String
    /// `strerror`'s text for the failure, or Foundation's description when there is no errno.
    package var reason: String

    package init(path: String, underlying error: any Error) {
        self.path = path
        self.reason = FileSystemError.reason(for: error)
    }

    /// The errno text Foundation keeps under `NSUnderlyingErrorKey`, without its generic preamble.
    package static func reason(for error: any Error) -> String {
        if let error = error as? FileSystemError { return error.reason }
        let nsError = error as NSError
        if let posix = nsError.userInfo[NSUnderlyingErrorKey] as? POSIXError,
           let reason = (posix as NSError).localizedFailureReason {
            return reason
        }
        if let posix = error as? POSIXError, let reason = (posix as NSError).localizedFailureReason {
            return reason
        }
        return nsError.localizedDescription
    }
}

/// The little file access the CLI needs, through Foundation (the CLI may not import Glibc).
package enum FileAccess {
    /// Reads a whole file; a folder or a missing file throws with the errno text.
    package static func contents(ofFile path: String) throws(FileSystemError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw FileSystemError(path: path, underlying: error)
        }
    }

    /// Reads standard input to its end.
    package static func readStandardInput() throws -> [UInt8] {
        try FileHandle.standardInput.readToEnd().map { Array($0) } ?? []
    }

    /// Whether `path` is a folder (following symbolic links).
    package static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The `*.strings`, `*.stringsdict` and `*.xcstrings` files under `root`, recursively and sorted, with the
    /// folders that could not be listed.
    ///
    /// Hidden entries (names starting with `.`, like `.git` or an rsync temp file) are skipped; symbolic
    /// links to folders are followed once (a link cycle is not entered twice).
    package static func stringsFiles(under root: String) -> (files: [String], errors: [FileSystemError]) {
        var files: [String] = []
        var errors: [FileSystemError] = []
        var visited: Set<String> = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard visited.insert(URL(fileURLWithPath: folder).resolvingSymlinksInPath().path).inserted else {
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: folder)
            } catch {
                errors.append(FileSystemError(path: folder, underlying: error))
                continue
            }
            var subfolders: [String] = []
            for name in names.sorted() where !name.hasPrefix(".") {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                if isDirectory(path) {
                    subfolders.append(path)
                } else if [".strings", ".stringsdict", ".xcstrings"].contains(where: name.lowercased().hasSuffix) {
                    files.append(path)
                }
            }
            pending += subfolders.reversed()
        }
        return (files.sorted(), errors)
    }
}
