import BundleChanges
import Foundation
import LinuxSystem
import StringsFormat

/// `hotstrings publish`: turns a bundle into a static release any web server can serve.
///
/// The output folder holds `files/<sha256>` (content-addressed, never changed once written, so they can be
/// cached forever), `releases/<release>.json` (every manifest published, for rolling the origin back) and
/// `manifest.json` (the current release, written last and atomically: a host that copies the folder as is never
/// serves a manifest naming a file not there yet).
package struct Publisher {
    /// What a publish did.
    package struct Outcome: Sendable {
        /// The manifest now current in the output folder.
        package var manifest: ReleaseManifest
        /// Files written to `files/` by this publish.
        package var writtenFiles: Int
        /// Files that were in `files/` already (unchanged since an earlier release).
        package var reusedFiles: Int
        /// Whether the bundle was the current release already (nothing was published).
        package var isUnchanged: Bool
        /// What was left out and why, by bundle path: one warning each.
        package var skippedFiles: [Skipped] = []
    }

    /// A file or folder left out of a release, and why.
    package struct Skipped: Sendable, Hashable {
        /// The bundle path: `en.lproj/notes.txt`, `DE.LPROJ`.
        package var path: String
        /// Why: not a table, or why the watcher does not serve the name (`BundleNames.NotServed`).
        package var reason: String
    }

    /// The tables and the other files `collect` found, by bundle path, in path order.
    package struct Collected {
        /// The tables, with their bytes: what a release carries.
        package var tables: [(path: String, bytes: [UInt8])]
        /// Files of the language folders that are not tables, and names that look meant as language folders, tables
        /// or catalogs but are not served (`DE.LPROJ`, `en.lproj/Localizable.STRINGS`): left out.
        package var skipped: [Skipped]
    }

    /// The largest file published (16 MiB, the watcher's default cap).
    package var maximumFileSize = 16 << 20
    /// The clock, for the release id and creation time.
    package var now: @Sendable () -> Date = { Date() }
    /// Whether tables and folders whose links lead outside the bundle are published (`--follow-external-symlinks`,
    /// as the watcher's): off, such a link is refused, so that whoever can write the bundle cannot publish the
    /// publisher's other files.
    package var followsExternalSymlinks = false

    /// How long after publishing the manifest expires (`--expires-in`, given when signing); nil writes no
    /// `expires`. With it, unchanged content is published again with a new sequence and expiry.
    package var expiresIn: Duration?

    /// A publisher with the defaults.
    package init() {}

    /// Collects the bundle's tables, validates every one, and publishes them into `output`.
    /// - Throws: `ReleaseError.invalidTable` for the first table that does not parse, has a name a pull cannot
    ///   install, or leads outside the bundle (nothing is published), `.system` when the bundle cannot be read or
    ///   the output written.
    package func publish(bundle: String, to output: String) throws(ReleaseError) -> Outcome {
        let collected = try collect(bundle: bundle)
        var files: [ReleaseManifest.File] = []
        for (path, bytes) in collected.tables {
            try Self.checkName(path)
            try ReleaseContent.validate(bytes, path: path)
            files.append(ReleaseManifest.File(path: path, size: bytes.count, sha256: SHA256.hexDigest(bytes)))
        }
        var outcome = try publish(files, contents: collected.tables, to: output, keeping: nil)
        outcome.skippedFiles = collected.skipped
        return outcome
    }

    /// Publishes `files` (whose bytes `contents` holds, by bundle path; a file missing there must be in
    /// `output/files/` already) into `output` with the next sequence: release `keeping` (an earlier release's id,
    /// `publish --from-release`) or a new id. Content equal to the current manifest's publishes nothing, unless
    /// the manifest is to expire (`expiresIn`, when signing: a new sequence and expiry is how an operator extends
    /// it) or `keeping` is given.
    private func publish(_ files: [ReleaseManifest.File], contents: [(path: String, bytes: [UInt8])],
                         to output: String, keeping: String?) throws(ReleaseError) -> Outcome {
        var manifest = ReleaseManifest(release: "", created: "", files: files)
        let manifestPath = output + "/manifest.json"
        let current = (try? FileSystem.readFile(atPath: manifestPath, maximumSize: 64 << 20))
            .flatMap { try? ReleaseManifest.decode($0, maximumFileSize: maximumFileSize) }
        if let current, current.files == manifest.files, expiresIn == nil, keeping == nil {
            return Outcome(manifest: current, writtenFiles: 0, reusedFiles: files.count, isUnchanged: true)
        }
        let date = now()
        if let keeping {
            manifest.release = keeping
        } else if let current, current.files == manifest.files {
            // The same content again (an expiry extended): the same release, so pullers record it without an
            // install.
            manifest.release = current.release
        } else {
            manifest.release = Self.stamp(date, format: "yyyyMMdd'T'HHmmss'Z'") + "-" + manifest.contentDigest.prefix(12)
        }
        manifest.created = Self.stamp(date, format: "yyyy-MM-dd'T'HH:mm:ss'Z'")
        manifest.sequence = Self.highestSequence(in: output, current: current) + 1
        if let expiresIn {
            let seconds = Double(expiresIn.components.seconds) + Double(expiresIn.components.attoseconds) / 1e18
            manifest.expires = ReleaseTime.string(date.addingTimeInterval(seconds))
        }
        var written = 0
        try system("create \(output)/files") { try makeDirectories(output + "/files") }
        try system("create \(output)/releases") { try makeDirectories(output + "/releases") }
        let byDigest = Dictionary(contents.map { (SHA256.hexDigest($0.bytes), $0.bytes) }) { first, _ in first }
        for (digest, bytes) in byDigest.sorted(by: { $0.key < $1.key }) {
            let path = output + "/files/" + digest
            if (try? FileSystem.status(atPath: path))?.size == bytes.count { continue }
            try system("write \(path)") { try FileSystem.writeFileAtomically(bytes, toPath: path) }
            written += 1
        }
        let json = manifest.json
        try system("write release \(manifest.release)") {
            try FileSystem.writeFileAtomically(json, toPath: output + "/releases/\(manifest.release).json")
        }
        try system("write \(manifestPath)") { try Self.replaceManifest(at: manifestPath, with: json) }
        if expiresIn == nil {
            // A signature of the manifest replaced would only make trusting pullers refuse it as a bad one.
            try? FileSystem.removeFile(atPath: manifestPath + ReleaseSigning.suffix)
        }
        return Outcome(manifest: manifest, writtenFiles: written, reusedFiles: files.count - written,
                       isUnchanged: false)
    }

    /// Publishes release `id` of `output` again (`output/releases/<id>.json`, its files in `output/files/`) as
    /// the current release with the next sequence: how an operator rolls every machine back, since pullers with
    /// trusted keys refuse a lower sequence.
    /// - Throws: `ReleaseError.system` naming the release or the file that is missing or damaged.
    package func republish(release id: String, in output: String) throws(ReleaseError) -> Outcome {
        guard ReleaseManifest.isSafeReleaseID(id) else {
            throw .system("'\(id)' is not a release id (letters, digits, '.', '_' or '-')")
        }
        let path = output + "/releases/\(id).json"
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path, maximumSize: 64 << 20)
        } catch {
            throw .system("cannot read \(path) (the releases of \(output) are in \(output)/releases): \(error)")
        }
        let old: ReleaseManifest
        do throws(ReleaseError) {
            old = try ReleaseManifest.decode(bytes, maximumFileSize: maximumFileSize)
        } catch {
            throw .system("\(path): \(error)")
        }
        for file in old.files {
            let stored = output + "/files/" + file.sha256
            let data = try? FileSystem.readFile(atPath: stored, maximumSize: file.size)
            guard let data, data.count == file.size, SHA256.hexDigest(data) == file.sha256 else {
                throw .system("\(stored) (\(file.path) of \(id)) is missing or does not match its SHA-256: "
                    + "nothing published")
            }
        }
        var outcome = try publish(old.files, contents: [], to: output, keeping: id)
        outcome.reusedFiles = old.files.count
        return outcome
    }

    /// The highest sequence `output` has published: of `current` (its manifest) and of every manifest in
    /// `releases/` (a manifest copied back by hand must not lower it); 0 for none.
    static func highestSequence(in output: String, current: ReleaseManifest?) -> Int {
        var highest = current?.sequence ?? 0
        let entries = (try? FileSystem.listDirectory(atPath: output + "/releases")) ?? []
        for entry in entries where entry.name.hasSuffix(".json") {
            let bytes = try? FileSystem.readFile(atPath: output + "/releases/" + entry.name, maximumSize: 64 << 20)
            if let sequence = bytes.flatMap({ try? ReleaseManifest.decode($0, maximumFileSize: Int.max) })?.sequence {
                highest = max(highest, sequence)
            }
        }
        return highest
    }

    /// Every table (`.strings`, `.stringsdict`, `.xcstrings`) of the bundle's language folders and every String
    /// Catalog (`T.xcstrings`) in its root, by bundle path, in path order: the names the watcher serves
    /// (`BundleNames`). The language folders' other files are listed as skipped, and so is every name that looks
    /// meant as a language folder, a table or a catalog but is not served (`DE.LPROJ`, `Localizable.STRINGS`,
    /// `de.lproj~`); hidden names, backups and editors' temporary files are left out, as the watcher leaves them
    /// out. Folders and files reached through links are read when the links stay inside the bundle (a bundle that
    /// is itself installed from releases publishes its current release), or with `followsExternalSymlinks`.
    /// - Throws: `ReleaseError.invalidTable` naming a link that leads outside the bundle.
    package func collect(bundle: String) throws(ReleaseError) -> Collected {
        var found: [(path: String, bytes: [UInt8])] = []
        var skipped: [Skipped] = []
        let root = try system("resolve \(bundle)") { try FileSystem.resolvedPath(bundle) }
        let entries = try system("list \(bundle)") { try FileSystem.listDirectory(atPath: bundle) }
        for entry in entries {
            let path = bundle + "/" + entry.name
            let kind = (try? FileSystem.status(atPath: path))?.kind
            if kind == .file, BundleNames.catalogTable(ofFile: entry.name) != nil {
                found.append((entry.name, try read(entry.name, of: bundle, root: root)))
                continue
            }
            guard kind == .directory, BundleNames.language(ofFolder: entry.name) != nil else {
                let notServed = kind == .directory ? BundleNames.notServed(folder: entry.name)
                    : BundleNames.notServed(file: entry.name)
                if let notServed { skipped.append(Skipped(path: entry.name, reason: notServed.reason)) }
                continue
            }
            try checkInside(entry.name, of: bundle, root: root)
            let files = try system("list \(path)") { try FileSystem.listDirectory(atPath: path) }
            for file in files {
                let relative = entry.name + "/" + file.name
                guard (try? FileSystem.status(atPath: path + "/" + file.name))?.kind == .file else { continue }
                let name = BundleNames.file(named: file.name)
                if case .ignored = name {
                    if let notServed = BundleNames.notServed(file: file.name) {
                        skipped.append(Skipped(path: relative, reason: notServed.reason))
                    }
                    continue
                }
                try checkInside(relative, of: bundle, root: root)
                guard case .table = name else {
                    skipped.append(Skipped(path: relative, reason: BundleNames.notServed(file: file.name)?.reason
                        ?? "not a table (.strings, .stringsdict, .xcstrings)"))
                    continue
                }
                found.append((relative, try read(relative, of: bundle, root: root)))
            }
        }
        guard !found.isEmpty else {
            throw .system("\(bundle) has no tables in <language>.lproj folders and no root catalogs: "
                + "nothing to publish")
        }
        try Self.refuseLanguageClashes(among: Set(found.compactMap { file in
            file.path.firstIndex(of: "/").map { String(file.path[..<$0]) }
        }))
        // The watcher serves catalogs in other folders too; a release cannot carry them yet, and one that left
        // them out would drop their tables on every machine that pulls it.
        if let catalog = Self.catalogOutsideServedFolders(in: bundle) {
            throw .invalidTable(FileProblem(file: catalog, message: "a String Catalog outside the bundle's root and "
                + "<language>.lproj folders cannot be published yet: move it into the root to publish it"))
        }
        return Collected(tables: found.sorted { $0.path < $1.path }, skipped: skipped.sorted { $0.path < $1.path })
    }

    /// Refuses `relative` (a bundle path) when, its links resolved, it leads outside `root` (the bundle's real
    /// path), unless `followsExternalSymlinks`: as the watcher refuses to read it.
    private func checkInside(_ relative: String, of bundle: String, root: String) throws(ReleaseError) {
        guard !followsExternalSymlinks else { return }
        let resolved = try system("resolve \(relative)") { try FileSystem.resolvedPath(bundle + "/" + relative) }
        try checkInside(relative, resolved: resolved, root: root)
    }

    /// Refuses `relative` when its real path `resolved` is outside `root`, unless `followsExternalSymlinks`.
    private func checkInside(_ relative: String, resolved: String, root: String) throws(ReleaseError) {
        guard !followsExternalSymlinks, resolved != root, !resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/") else { return }
        throw .invalidTable(FileProblem(file: relative, message: "leads outside the bundle, to \(resolved); not "
            + "published (--follow-external-symlinks allows it)"))
    }

    /// Refuses a bundle path a pull would refuse: a name longer than the installer can write, or a path that is
    /// not `<language>.lproj/<file>` or `<table>.xcstrings` with printable names.
    private static func checkName(_ path: String) throws(ReleaseError) {
        if let name = path.split(separator: "/").first(where: { $0.utf8.count > ReleaseManifest.longestName }) {
            throw .invalidTable(FileProblem(file: path, message: "the name is \(name.utf8.count) bytes long: a pull "
                + "installs names of at most \(ReleaseManifest.longestName) bytes (255, less the installer's "
                + "temporary name); rename it"))
        }
        guard ReleaseManifest.isSafeBundlePath(path) else {
            throw .invalidTable(FileProblem(file: path, message: "a pull cannot install this name (control "
                + "characters?); rename it"))
        }
    }

    /// Refuses language folders that are one language (`de.lproj` and `DE.lproj`): the watcher serves one of them,
    /// so the other's keys would never be served on any machine that pulls the release (`BundleNames.clashes`).
    /// - Throws: `ReleaseError.invalidTable` naming the folders.
    static func refuseLanguageClashes(among names: Set<String>) throws(ReleaseError) {
        guard let clash = BundleNames.clashes(among: names).first else { return }
        throw .invalidTable(FileProblem(file: clash.unserved[0], message: clash.message + "; nothing is published"))
    }

    /// The bundle path of a String Catalog in a folder other than the root and the language folders, searched as
    /// the watcher searches (`BundleNames.isSearched`: links not followed, as deep as the watcher's default).
    static func catalogOutsideServedFolders(in bundle: String, below folder: String = "", depth: Int = 0) -> String? {
        guard depth <= BundleNames.catalogSearchDepth,
              let entries = try? FileSystem.listDirectory(atPath: folder.isEmpty ? bundle : bundle + "/" + folder)
        else { return nil }
        for entry in entries.sorted(by: { $0.name < $1.name }) {
            let path = folder.isEmpty ? entry.name : folder + "/" + entry.name
            let kind = (try? FileSystem.status(atPath: bundle + "/" + path, followingSymlinks: false))?.kind
            if kind == .file, !folder.isEmpty, BundleNames.catalogTable(ofFile: entry.name) != nil { return path }
            if kind == .directory, BundleNames.isSearched(folder: entry.name),
               let found = catalogOutsideServedFolders(in: bundle, below: path, depth: depth + 1) {
                return found
            }
        }
        return nil
    }

    /// The bytes of `relative` (a bundle path), refused when the file opened is outside `root` (unless
    /// `followsExternalSymlinks`): checked on the opened file's real path, as the watcher checks, so a link
    /// swapped between a check and the read does not get around it.
    private func read(_ relative: String, of bundle: String, root: String) throws(ReleaseError) -> [UInt8] {
        let path = bundle + "/" + relative
        let snapshot = try system("read \(path)") {
            try FileSystem.snapshot(atPath: path, maximumSize: maximumFileSize)
        }
        try checkInside(relative, resolved: snapshot.resolvedPath, root: root)
        return snapshot.bytes
    }

    /// Writes the manifest under a temporary name and renames it over the old one, its modification time at
    /// least a second after the old one's: nginx and Apache make `ETag` and `Last-Modified` from the time in whole
    /// seconds and the size, so two manifests of one size published within a second would otherwise look
    /// unchanged to a conditional request.
    private static func replaceManifest(at path: String, with bytes: [UInt8]) throws {
        let previous = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date
        let temporary = path + ".tmp-\(ProcessStatistics.processID)"
        try FileSystem.writeFile(bytes, toPath: temporary)
        var modified = Date()
        let previousSecond = previous.map { $0.timeIntervalSince1970.rounded(.down) }
        if let previousSecond, modified.timeIntervalSince1970.rounded(.down) <= previousSecond {
            modified = Date(timeIntervalSince1970: previousSecond + 1)
        }
        try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: temporary)
        try FileSystem.rename(temporary, to: path)
    }

    private static func stamp(_ date: Date, format: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter.string(from: date)
    }
}

/// Runs `body`, turning its error (a `SystemError`) into `ReleaseError.system` that says what was being done.
func system<T>(_ what: String, _ body: () throws -> T) throws(ReleaseError) -> T {
    do {
        return try body()
    } catch {
        throw .system("cannot \(what): \(error)")
    }
}

/// `mkdir -p`.
func makeDirectories(_ path: String) throws(SystemError) {
    var current = path.hasPrefix("/") ? "" : "."
    for part in path.split(separator: "/") {
        current += "/" + part
        do {
            try FileSystem.makeDirectory(atPath: current)
        } catch where error.errno == .exists {
            continue
        }
    }
}
