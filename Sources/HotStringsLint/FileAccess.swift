import BundleChanges
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

    /// The tables and catalogs under `root` whose names the daemon serves (`BundleNames`: `*.strings`,
    /// `*.stringsdict` and `*.xcstrings`), recursively and sorted, with the folders that could not be listed and the
    /// names skipped because the daemon does not serve them although they look meant as a table, a catalog or a
    /// language folder (`X.STRINGS`, `DE.LPROJ`, `Localizable.strings~`, `.de.lproj`).
    ///
    /// Every language folder's parent is taken for a bundle's root. Folders the daemon never reads (hidden ones like
    /// `.git` or `..data`, backups, a `.lproj` folder that is no language tag, a language folder's subfolders) are
    /// not entered; symbolic links to folders are followed once (a link cycle is not entered twice).
    package static func stringsFiles(under root: String)
        -> (files: [String], errors: [FileSystemError], skipped: [(path: String, notServed: BundleNames.NotServed)])
    {
        var files: [String] = []
        var errors: [FileSystemError] = []
        var skipped: [(path: String, notServed: BundleNames.NotServed)] = []
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
            // The daemon reads a language folder's own files only: its subfolders are not searched for catalogs.
            let isLanguageFolder = BundleNames.language(ofFolder: URL(fileURLWithPath: folder).lastPathComponent) != nil
            for name in names.sorted() {
                let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
                let isFolder = isDirectory(path)
                if let notServed = isFolder ? BundleNames.notServed(folder: name) : BundleNames.notServed(file: name) {
                    skipped.append((path, notServed))
                }
                if isFolder {
                    switch BundleNames.folder(named: name) {
                    case .language, .searched: if !isLanguageFolder { subfolders.append(path) }
                    case .notALanguage, .ignored: break
                    }
                } else if BundleNames.format(ofFile: name) != nil {
                    files.append(path)
                }
            }
            pending += subfolders.reversed()
        }
        return (files.sorted(), errors, skipped)
    }

    /// Why the daemon would not serve the file at `path` although it looks meant as a table or a catalog: its name
    /// (`X.STRINGS`, `x.strings~`), or, for a table, its folder (`DE.LPROJ`, `.de.lproj`); nil otherwise.
    package static func notServed(_ path: String) -> BundleNames.NotServed? {
        let url = URL(fileURLWithPath: path)
        if let notServed = BundleNames.notServed(file: url.lastPathComponent) { return notServed }
        guard BundleNames.table(ofFile: url.lastPathComponent) != nil else { return nil }
        return BundleNames.notServed(folder: url.deletingLastPathComponent().lastPathComponent)
    }
}
