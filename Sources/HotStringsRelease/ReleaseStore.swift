import BundleChanges
import Foundation
import LinuxSystem

/// The releases installed in one bundle, in the layout Kubernetes uses for ConfigMap volumes:
///
/// ```
/// BUNDLE/..r-20261203T101500Z-ab12cd34ef56/de.lproj/Localizable.strings   a release, never changed once in place
/// BUNDLE/..data -> ..r-20261203T101500Z-ab12cd34ef56                      the current release
/// BUNDLE/de.lproj -> ..data/de.lproj                                      what the watcher serves
/// BUNDLE/Settings.xcstrings -> ..data/Settings.xcstrings                  a String Catalog of the root, the same way
/// ```
///
/// An install writes a new release folder under a temporary name, renames it into place under a name no folder
/// has (`..r-<id>`, or `..r-<id>@2` when that one is there: the same id served again with other files), and makes
/// it current with one `rename` of a new `..data` link over the old one, so the watcher reads the whole release in
/// one batch and subscribers get one reload; the folder `..data` led to is removed only after the swap. Links for
/// languages (and root catalogs) the new release adds are made before the swap (they lead nowhere until then,
/// which the watcher ignores), links for those it drops are removed after it. Into an empty bundle, `..data`
/// first points at an empty folder (`...empty`), so the first release is linked the same way. Every name the
/// store uses, and why no release id reaches them, is in `ReleaseStoreNames`.
/// Whatever step a crash interrupts, `..data` names one whole release; `prepare()` removes what is left over.
package struct ReleaseStore: Sendable {
    /// The bundle folder.
    package let bundle: String
    /// How many releases before the current one are kept for `rollback` (3 by default).
    package var keptReleases = 3
    /// A test-only hook: the install calls it with each step's number as it reaches the step (see `InstallStep`).
    package var willReachStep: @Sendable (InstallStep) -> Void = InstallStep.crashIfRequested

    /// The names the store uses in the bundle (see `ReleaseStoreNames`).
    typealias Names = ReleaseStoreNames

    /// The store of the bundle at `bundle`.
    package init(bundle: String) {
        self.bundle = bundle
    }

    // MARK: - Reading

    /// The release `..data` points at, nil when there is none.
    package func current() -> InstalledRelease? {
        guard let target = currentFolderName(), let release = InstalledRelease.read(folder: bundle + "/" + target),
              Names.isFolder(target, of: release.id) else { return nil }
        return release
    }

    /// The id of the release `..data` points at, from the link alone (one `readlink`, nothing read): what `status`
    /// shows. Nil when the bundle has no release.
    package func currentID() -> String? {
        guard let target = currentFolderName() else { return nil }
        return Names.releaseID(ofFolder: target) ?? Names.oldLayoutReleaseID(ofFolder: target)
    }

    /// Whether the bundle is laid out by releases: its `..data` link leads to a release folder (or, before the first
    /// release, to the empty folder). Its files are a release's, replaced whole by the next pull and brought back
    /// by `rollback`, so an edit made in them would be lost or taken for published text: edits belong in the
    /// origin's source. One `readlink` for the store's own layout; a link of the old layout (`..<id>`, a name that a
    /// Kubernetes volume's `..data` link to `..2026_12_07_…` also has) counts only with its install record.
    package var holdsReleases: Bool {
        guard let target = currentFolderName() else { return false }
        if target == Names.emptyFolder || Names.releaseID(ofFolder: target) != nil { return true }
        return current() != nil
    }

    /// The name `..data` leads to, when it is a link to a name in the bundle.
    func currentFolderName() -> String? {
        guard let target = try? FileSystem.linkTarget(atPath: bundle + "/" + Names.dataLink),
              target.hasPrefix(".."), !target.contains("/") else { return nil }
        return target
    }

    /// Every complete release folder (of either layout), oldest install first.
    package func installed() -> [InstalledRelease] {
        let entries = (try? FileSystem.listDirectory(atPath: bundle)) ?? []
        return entries.compactMap { entry -> InstalledRelease? in
            guard entry.kind == .directory, isReleaseFolderName(entry.name) else { return nil }
            guard let release = InstalledRelease.read(folder: bundle + "/" + entry.name),
                  Names.isFolder(entry.name, of: release.id) else { return nil }
            return release
        }.sorted { ($0.installedAt, $0.id, $0.folderName) < ($1.installedAt, $1.id, $1.folderName) }
    }

    private func isReleaseFolderName(_ name: String) -> Bool {
        Names.releaseID(ofFolder: name) != nil || Names.oldLayoutReleaseID(ofFolder: name) != nil
    }

    /// The bytes of a file with digest `sha256` in any installed release, checked against the digest; nil when no
    /// release has it (or its copy no longer matches).
    package func localFile(sha256: String, size: Int) -> [UInt8]? {
        for release in installed().reversed() {
            for file in release.manifest.files where file.sha256 == sha256 && file.size == size {
                let path = bundle + "/" + release.folderName + "/" + file.path
                guard let bytes = try? FileSystem.readFile(atPath: path, maximumSize: size),
                      bytes.count == size, SHA256.hexDigest(bytes) == sha256 else { continue }
                return bytes
            }
        }
        return nil
    }

    // MARK: - Start-up

    /// Makes the bundle folder if missing, refuses a bundle that holds language folders or root String Catalogs
    /// of its own, and cleans up after an install that was killed: temporary folders and links, links that do
    /// not match the current release, other folders of the current release's id, and release folders beyond the
    /// kept count. Release folders of the old layout (`..<id>`) that are not current are moved to `..r-<id>`;
    /// the folder `..data` leads to is never removed or moved.
    /// - Throws: `ReleaseError.unmanagedBundle` for a bundle with real language folders or root catalogs,
    ///   `.system` otherwise.
    package func prepare() throws(ReleaseError) {
        try system("create \(bundle)") { try makeDirectories(bundle) }
        let entries = try system("list \(bundle)") { try FileSystem.listDirectory(atPath: bundle) }
        for entry in entries where Self.isLinkedName(entry.name) {
            let target = try? FileSystem.linkTarget(atPath: bundle + "/" + entry.name)
            guard entry.kind == .symlink, target == Names.dataLink + "/" + entry.name else {
                throw .unmanagedBundle("\(bundle) holds \(entry.name) of its own: releases are installed only into "
                    + "an empty bundle folder or one they were installed into before (\(entry.name) -> ..data/…)")
            }
        }
        // Never the folder `..data` leads to: in the old layout, a release could be named like a leftover.
        let currentFolder = currentFolderName()
        for entry in entries where entry.name != currentFolder {
            let isLeftover = entry.name.hasPrefix(Names.temporaryPrefix) || entry.name == Names.stagingLink
                // A folder named `..data`: a release of the old layout with id `data`, which broke every pull.
                || (entry.name == Names.dataLink && entry.kind == .directory)
            let isBrokenRelease = entry.kind == .directory && isReleaseFolderName(entry.name)
                && InstalledRelease.read(folder: bundle + "/" + entry.name) == nil
            if isLeftover {
                try system("remove the leftover \(entry.name)") {
                    try FileSystem.removeRecursively(atPath: bundle + "/" + entry.name)
                }
            } else if isBrokenRelease {
                try remove(folder: entry.name)
            }
        }
        if currentFolder != Names.emptyFolder {
            try? FileSystem.removeRecursively(atPath: bundle + "/" + Names.emptyFolder)
        }
        if let current = current() {
            try linkEntries(of: current.manifest, removingOthers: true)
            try tidy(keeping: current)
        }
    }

    /// Readies the bundle for a loop that keeps pulling into it (`serve --pull`, embedded pull), before anything
    /// watches it: `prepare()` under the lock.
    /// - Returns: a failure the first pull will meet again (another pull holds the lock, a disk error), for the
    ///   caller to log; nil when the bundle is ready.
    /// - Throws: `ReleaseError.unmanagedBundle` for a bundle with language folders or root catalogs of its own:
    ///   pulling into it would fail forever.
    package func prepareForPulling() throws(ReleaseError) -> ReleaseError? {
        do throws(ReleaseError) {
            try locked { () throws(ReleaseError) in try prepare() }
            return nil
        } catch .unmanagedBundle(let reason) {
            throw .unmanagedBundle(reason)
        } catch {
            return error
        }
    }

    // MARK: - Installing

    /// Installs `manifest` with the verified `contents` (bytes by bundle path) as the current release.
    ///
    /// Call `prepare()` first. The files must have been checked against the manifest (see `Puller`); see
    /// `install(_:staged:)` for the folder it goes into.
    /// - Throws: `ReleaseError.system` naming the failing step; the previous release stays current.
    package func install(_ release: InstalledRelease, contents: [String: [UInt8]]) throws(ReleaseError) {
        let staging = try stagingFolder(for: release)
        do throws(ReleaseError) {
            var isFirst = true
            for file in release.manifest.files {
                guard let bytes = contents[file.path] else { throw .system("no content for \(file.path)") }
                try system("write \(file.path)") {
                    try FileSystem.writeFileAtomically(bytes, toPath: staging + "/" + file.path)
                }
                if isFirst { willReachStep(.firstFileWritten) }
                isFirst = false
            }
        } catch {
            try? FileSystem.removeRecursively(atPath: staging)
            throw error
        }
        try install(release, staged: staging)
    }

    /// Creates the temporary folder `release` is written into, with its language folders, for the caller to write
    /// every file of the manifest into (then `install(_:staged:)`); a folder left by a failure is removed by the
    /// next `prepare()`.
    /// - Throws: `ReleaseError.system` naming the failing step.
    package func stagingFolder(for release: InstalledRelease) throws(ReleaseError) -> String {
        let staging = bundle + "/" + Names.temporaryPrefix + release.id + "-\(ProcessStatistics.processID)"
        try? FileSystem.removeRecursively(atPath: staging)
        try system("create \(staging)") { try FileSystem.makeDirectory(atPath: staging) }
        willReachStep(.stagingCreated)
        do throws(ReleaseError) {
            for folder in release.manifest.folders {
                try system("create \(staging)/\(folder)") {
                    try FileSystem.makeDirectory(atPath: staging + "/" + folder)
                }
            }
        } catch {
            try? FileSystem.removeRecursively(atPath: staging)
            throw error
        }
        return staging
    }

    /// Installs `release` from `staging` (made by `stagingFolder(for:)`, every file of the manifest written,
    /// flushed and verified in it) as the current release; `staging` is removed when this fails. The release goes
    /// into a folder no other has (`release.folderName` is not used), so that a release id installed before, even
    /// the current one, is replaced by the swap and removed only after it.
    /// - Throws: `ReleaseError.system` naming the failing step; the previous release stays current.
    package func install(_ release: InstalledRelease, staged staging: String) throws(ReleaseError) {
        var release = release
        release.folderName = freshFolderName(for: release.id)
        do throws(ReleaseError) {
            try system("write the manifest copy") {
                try FileSystem.writeFileAtomically(release.manifest.json,
                                                   toPath: staging + "/" + InstalledRelease.manifestName)
                try FileSystem.writeFileAtomically(release.recordJSON,
                                                   toPath: staging + "/" + InstalledRelease.recordName)
            }
            willReachStep(.filesWritten)
            let folder = bundle + "/" + release.folderName
            try system("rename \(staging) to \(folder)") { try FileSystem.rename(staging, to: folder) }
        } catch {
            try? FileSystem.removeRecursively(atPath: staging)
            throw error
        }
        willReachStep(.releaseFolderInPlace)
        try makeCurrent(release)
    }

    /// `..r-<id>`, or the first `..r-<id>@<n>` nothing in the bundle has.
    func freshFolderName(for id: String) -> String {
        var copy = 1
        while (try? FileSystem.status(atPath: bundle + "/" + Names.releaseFolder(id, copy: copy),
                                      followingSymlinks: false)) != nil {
            copy += 1
        }
        return Names.releaseFolder(id, copy: copy)
    }

    /// Makes the installed `release` current: links for the new languages and root catalogs, the `..data` swap,
    /// then the links of languages and catalogs it lacks removed, other folders of its id removed, and older
    /// releases pruned.
    /// - Throws: `ReleaseError.system` naming the failing step.
    package func makeCurrent(_ release: InstalledRelease) throws(ReleaseError) {
        // Into an empty bundle, `..data` first points at an empty folder: the new languages' links are then made
        // before the swap as for any later release (leading into an existing `..data` that lacks them, which the
        // watcher ignores), and a daemon already serving the bundle gets the whole first release in the swap's
        // one batch. Made after the swap, one by one, they could land in several reloads.
        if (try? FileSystem.linkTarget(atPath: bundle + "/" + Names.dataLink)) == nil {
            let empty = bundle + "/" + Names.emptyFolder
            if (try? FileSystem.status(atPath: empty, followingSymlinks: false)) == nil {
                try system("create \(empty)") { try FileSystem.makeDirectory(atPath: empty) }
            }
            try point(Names.dataLink, at: Names.emptyFolder)
        }
        try linkEntries(of: release.manifest, removingOthers: false)
        willReachStep(.languagesLinked)
        try point(Names.dataLink, at: release.folderName, reaching: .linkMade)
        willReachStep(.swapped)
        try linkEntries(of: release.manifest, removingOthers: true)
        willReachStep(.oldLanguagesUnlinked)
        try tidy(keeping: release)
        willReachStep(.pruned)
    }

    /// Points the link `name` at `target` with one `rename` of a new link over it (`..data_tmp` first), so that
    /// it always leads to one folder or the other; `reaching` is the step announced between the two.
    func point(_ name: String, at target: String, reaching step: InstallStep? = nil) throws(ReleaseError) {
        let stagingLink = bundle + "/" + Names.stagingLink
        try? FileSystem.removeFile(atPath: stagingLink)
        try system("link \(stagingLink)") { try FileSystem.makeSymbolicLink(atPath: stagingLink, pointingTo: target) }
        if let step { willReachStep(step) }
        try system("swap \(name)") { try FileSystem.rename(stagingLink, to: bundle + "/" + name) }
    }

    /// Makes the release installed before the current one current again.
    /// - Throws: `ReleaseError.unmanagedBundle` when there is no current release or none before it.
    package func rollback() throws(ReleaseError) -> (from: InstalledRelease, to: InstalledRelease) {
        try prepare()
        guard let current = current() else { throw .unmanagedBundle("\(bundle) has no installed release") }
        guard let previous = installed().last(where: { ($0.installedAt, $0.id) < (current.installedAt, current.id) })
        else { throw .unmanagedBundle("\(bundle) keeps no release older than \(current.id) to roll back to") }
        try makeCurrent(previous)
        return (current, previous)
    }

    /// Writes a new install record for `release` (newer validators, or a new install time), atomically.
    package func update(_ release: InstalledRelease) throws(ReleaseError) {
        let path = bundle + "/" + release.folderName + "/" + InstalledRelease.recordName
        try system("write \(path)") { try FileSystem.writeFileAtomically(release.recordJSON, toPath: path) }
    }

    /// Whether `name` in the bundle's root is one the store links into `..data`: a language folder or a String
    /// Catalog (`BundleNames`), the names a manifest may hold there.
    private static func isLinkedName(_ name: String) -> Bool {
        BundleNames.language(ofFolder: name) != nil || BundleNames.catalogTable(ofFile: name) != nil
    }

    /// Links `<name> -> ..data/<name>` for every language folder and root catalog of `manifest`; with
    /// `removingOthers`, also removes the links of those it lacks.
    private func linkEntries(of manifest: ReleaseManifest, removingOthers: Bool) throws(ReleaseError) {
        let wanted = Set(manifest.folders + manifest.rootCatalogs)
        let entries = try system("list \(bundle)") { try FileSystem.listDirectory(atPath: bundle) }
        let present = Set(entries.filter { $0.kind == .symlink && Self.isLinkedName($0.name) }.map(\.name))
        for folder in wanted.subtracting(present).sorted() {
            let path = bundle + "/" + folder
            try system("link \(path)") {
                try FileSystem.makeSymbolicLink(atPath: path, pointingTo: Names.dataLink + "/" + folder)
            }
        }
        guard removingOthers else { return }
        for folder in present.subtracting(wanted).sorted() {
            try system("unlink \(folder)") { try FileSystem.removeFile(atPath: bundle + "/" + folder) }
        }
    }

    /// Once `current` is current: removes the other folders of its id (the one the swap replaced, or one a crash
    /// left), moves the folders of the old layout (`..<id>`) to `..r-<id>`, and removes release folders older than
    /// the current one beyond the `keptReleases` installed just before it (releases newer than the current one,
    /// after a rollback, stay for rolling forward).
    private func tidy(keeping current: InstalledRelease) throws(ReleaseError) {
        for release in installed() where release.folderName != current.folderName {
            if release.id == current.id {
                try remove(folder: release.folderName)
            } else if Names.releaseID(ofFolder: release.folderName) != release.id {
                let moved = freshFolderName(for: release.id)
                try system("move \(release.folderName) to \(moved)") {
                    try FileSystem.rename(bundle + "/" + release.folderName, to: bundle + "/" + moved)
                }
            }
        }
        let older = installed().filter { ($0.installedAt, $0.id) < (current.installedAt, current.id) }
        for release in older.dropLast(keptReleases) where release.folderName != current.folderName {
            try remove(folder: release.folderName)
        }
    }

    /// Removes a release folder: renamed to a temporary name first, so that a crash in the middle never leaves a
    /// half-removed folder that looks like a release.
    private func remove(folder name: String) throws(ReleaseError) {
        let doomed = bundle + "/" + Names.temporaryPrefix + "old-" + name.dropFirst(2)
        try? FileSystem.removeRecursively(atPath: doomed)
        try system("rename \(name) away") { try FileSystem.rename(bundle + "/" + name, to: doomed) }
        try system("remove \(doomed)") { try FileSystem.removeRecursively(atPath: doomed) }
    }
}

/// The steps of an install, in order: a test-only environment variable (`HOTSTRINGS_TEST_CRASH_AT_INSTALL_STEP`,
/// a step's number) kills the process with SIGKILL when it reaches that step, to show that a pull killed anywhere
/// leaves one whole release current.
package enum InstallStep: Int, Sendable, CaseIterable {
    /// The temporary folder exists, nothing in it.
    case stagingCreated = 1
    /// One file is in the temporary folder.
    case firstFileWritten
    /// Every file and the release's records are written and flushed.
    case filesWritten
    /// The release folder has its final name.
    case releaseFolderInPlace
    /// Links for the release's new languages and root catalogs exist (leading nowhere yet).
    case languagesLinked
    /// `..data_tmp` points at the new release.
    case linkMade
    /// `..data` points at the new release: it is current.
    case swapped
    /// Links of languages and root catalogs the release lacks are gone.
    case oldLanguagesUnlinked
    /// Older releases beyond the kept count are removed.
    case pruned

    /// The environment variable tests set.
    package static let environmentVariable = "HOTSTRINGS_TEST_CRASH_AT_INSTALL_STEP"

    private static let requested: Int? = ProcessInfo.processInfo.environment[environmentVariable].flatMap(Int.init)

    /// Kills this process with SIGKILL if the environment asks for `step`.
    @Sendable package static func crashIfRequested(_ step: InstallStep) {
        guard requested == step.rawValue else { return }
        try? Signals.send(.kill, toProcess: ProcessStatistics.processID)
    }
}
