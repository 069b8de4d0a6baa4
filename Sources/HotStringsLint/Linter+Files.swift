import BundleChanges
import Foundation
import LinuxSystem

/// What `lint` reads of the paths it is given, through `LinuxSystem.FileSystem`: the tables and catalogs a folder
/// holds by the daemon's rules (`BundleNames`), and the names it would not serve.
extension Linter {
    /// The tables and catalogs under `root` whose names the daemon serves (`BundleNames`: `*.strings`,
    /// `*.stringsdict` and `*.xcstrings`), recursively and sorted, with the folders that could not be listed and the
    /// names skipped because the daemon does not serve them although they look meant as a table, a catalog or a
    /// language folder (`X.STRINGS`, `DE.LPROJ`, `Localizable.strings~`, `.de.lproj`).
    ///
    /// Every language folder's parent is taken for a bundle's root. Folders the daemon never reads (hidden ones like
    /// `.git` or `..data`, backups, a `.lproj` folder that is no language tag, a language folder's subfolders) are
    /// not entered; symbolic links to folders are followed once (a link cycle is not entered twice).
    static func stringsFiles(under root: String)
        -> (files: [String], errors: [SystemError], skipped: [(path: String, notServed: BundleNames.NotServed)])
    {
        var files: [String] = []
        var errors: [SystemError] = []
        var skipped: [(path: String, notServed: BundleNames.NotServed)] = []
        var visited: Set<String> = []
        var pending = [root]
        while let folder = pending.popLast() {
            guard visited.insert((try? FileSystem.resolvedPath(folder)) ?? folder).inserted else { continue }
            let entries: [FileSystem.DirectoryEntry]
            do {
                entries = try FileSystem.listDirectory(atPath: folder)
            } catch {
                errors.append(error)
                continue
            }
            var subfolders: [String] = []
            // The daemon reads a language folder's own files only: its subfolders are not searched for catalogs.
            let isLanguageFolder = BundleNames.language(ofFolder: URL(fileURLWithPath: folder).lastPathComponent) != nil
            for entry in entries {
                let path = folder.hasSuffix("/") ? folder + entry.name : folder + "/" + entry.name
                let isFolder = entry.kind == .directory || (entry.kind == .symlink && isDirectory(path))
                let name = entry.name
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

    /// Whether `path` is a folder, following symbolic links.
    static func isDirectory(_ path: String) -> Bool {
        (try? FileSystem.status(atPath: path))?.kind == .directory
    }

    /// Why the daemon would not serve the file at `path` although it looks meant as a table or a catalog: its name
    /// (`X.STRINGS`, `x.strings~`), or, for a table, its folder (`DE.LPROJ`, `.de.lproj`); nil otherwise.
    static func notServed(_ path: String) -> BundleNames.NotServed? {
        let url = URL(fileURLWithPath: path)
        if let notServed = BundleNames.notServed(file: url.lastPathComponent) { return notServed }
        guard BundleNames.table(ofFile: url.lastPathComponent) != nil else { return nil }
        return BundleNames.notServed(folder: url.deletingLastPathComponent().lastPathComponent)
    }
}
