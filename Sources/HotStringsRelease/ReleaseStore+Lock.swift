import LinuxSystem

extension ReleaseStore {
    /// Runs `body` holding `..pull.lock` in the bundle, so that two pulls (or a pull and a rollback) never work
    /// on one bundle at once.
    /// - Throws: `ReleaseError.system` when another process holds the lock, or what `body` throws.
    package func locked<T>(_ body: () throws(ReleaseError) -> T) throws(ReleaseError) -> T {
        try system("create \(bundle)") { try makeDirectories(bundle) }
        let path = bundle + "/" + Names.lockName
        let lock: FileLock
        do {
            lock = try FileLock(path: path, ownerID: ProcessStatistics.userID)
        } catch .system(let error) where error.errno == .isDirectory {
            // A release of the old layout named `pull.lock` (which then broke every pull): moved to its new name.
            try moveOldRelease(named: Names.lockName)
            do { lock = try FileLock(path: path, ownerID: ProcessStatistics.userID) } catch {
                throw Self.lockError(error, path: path)
            }
        } catch {
            throw Self.lockError(error, path: path)
        }
        defer { withExtendedLifetime(lock) {} }
        return try body()
    }

    /// Why the lock at `path` could not be taken, said as it is: another pull or rollback (with its process id), a
    /// read-only file system, or the system error.
    package static func lockError(_ failure: FileLock.Failure, path: String) -> ReleaseError {
        switch failure {
        case .held(let holder):
            let who = holder.map { " (process \($0))" } ?? ""
            return .system("cannot lock \(path): another pull or rollback holds it\(who)")
        case .system(let error) where error.errno == .readOnlyFileSystem:
            return .system("cannot lock \(path): the bundle is on a read-only file system (EROFS); a pull or "
                + "rollback writes into the bundle")
        case .system(let error):
            return .system("cannot lock \(path): \(error)")
        case .untrusted(let reason):
            return .system("cannot lock \(path): \(reason)")
        }
    }

    /// Moves the release folder `name` of the old layout (`..<id>`) to its new name and, when `..data` led to it,
    /// points `..data` there: a repair of a bundle an earlier hotstrings broke (the link leads nowhere between the
    /// two renames).
    private func moveOldRelease(named name: String) throws(ReleaseError) {
        guard let release = InstalledRelease.read(folder: bundle + "/" + name), ".." + release.id == name else {
            throw .system("cannot lock \(bundle)/\(name): it is a directory, not a release; remove it")
        }
        let wasCurrent = currentFolderName() == name
        let moved = freshFolderName(for: release.id)
        try system("move \(name) to \(moved)") { try FileSystem.rename(bundle + "/" + name, to: bundle + "/" + moved) }
        if wasCurrent { try point(Names.dataLink, at: moved) }
    }
}
