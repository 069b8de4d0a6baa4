import BundleChanges
import LinuxSystem
import StringsFormat

/// Losing the bundle root and finding it again: while it is gone its parent is watched, and the last good tables
/// stay served until it is back and scanned.
extension WatchLoop {

    var rootName: String { String(root.split(separator: "/").last ?? "") }
    var parentPath: String {
        let parent = root.split(separator: "/").dropLast().joined(separator: "/")
        return "/" + parent
    }

    func rootLost() {
        guard rootIsPresent else { return }
        rootIsPresent = false
        for watch in folders.watches { inotify.removeWatch(watch) }
        folders = FolderIndex()
        relinkDue = nil
        settler.reset()
        pendingRescan = .rootRemoved
        watchParent(lookingForTheRoot: true)
    }

    /// Watches the root's parent to see the root come back, and, when `lookingForTheRoot`, restores a root that
    /// came back before the watch existed (not when the root is there but cannot be watched: that would spin).
    func watchParent(lookingForTheRoot: Bool) {
        do {
            let watch = try inotify.addWatch(parentPath, mask: [.create, .movedTo, .onlyDirectory])
            folders.watchParent(watch)
        } catch {
            pendingProblems.append(watchProblem(error, path: parentPath))
        }
        if lookingForTheRoot && isDirectory("") { restoreRoot() }
    }

    func restoreRoot() {
        for watch in folders.forgetParentWatches() { inotify.removeWatch(watch) }
        pendingRescan = .rootRestored
    }
}
