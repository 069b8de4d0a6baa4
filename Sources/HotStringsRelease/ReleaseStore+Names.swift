/// Every name the store uses in a bundle's root, in one place.
///
/// A release id is any name of `[A-Za-z0-9._-]` that does not start with `.` or `-`
/// (`ReleaseManifest.isSafeReleaseID`), chosen by whoever writes the origin. Release folders are `..r-<id>`, and
/// `..r-<id>@<n>` when the id is installed again with other files while its folder is current (the new folder is
/// swapped in, then the old one removed): no id contains `@`, so no release folder is another id's. Every other
/// name the store uses starts with `..` and not with `..r-`, so no release folder is one of them either:
///
/// ```
/// ..data            the link to the current release            ..data_tmp     the next ..data, renamed over it
/// ..pull.lock       one pull or rollback at a time             ..tmp-*        staging and removal (leftovers)
/// ...empty          what ..data leads to before the first release is linked
/// ..sequence.json   the highest sequence a pull with trusted keys installed
/// ```
///
/// Bundles installed before this layout have release folders `..<id>`; they are read as releases (an id equal
/// to one of the names above could not have worked there), moved to `..r-<id>` by `prepare()` once `..data` no
/// longer leads to them, and never taken for leftovers while current.
enum ReleaseStoreNames {
    /// The link to the current release (Kubernetes' name, which the watcher knows as a swapped link).
    static let dataLink = "..data"
    /// The new `..data` link, made and then renamed over `..data`.
    static let stagingLink = "..data_tmp"
    /// The lock file of `ReleaseStore.locked`.
    static let lockName = "..pull.lock"
    /// The record of the highest sequence installed by a pull with trusted keys (`ReleaseStore+Sequence`).
    static let sequenceName = "..sequence.json"
    /// Staging folders (`..tmp-<id>-<pid>`) and folders being removed (`..tmp-old-…`): leftovers after a crash.
    static let temporaryPrefix = "..tmp-"
    /// What `..data` points at while the first release into an empty bundle is linked. It stays until the next
    /// `prepare()`: removed at once, a watcher that had just read `..data` could find its target gone.
    static let emptyFolder = "...empty"
    /// The start of every release folder's name.
    static let releasePrefix = "..r-"
    /// Between a release folder's id and its copy number.
    static let copySeparator: Character = "@"

    /// The folder of release `id`: `..r-<id>`, or `..r-<id>@<copy>` for a copy after the first.
    static func releaseFolder(_ id: String, copy: Int = 1) -> String {
        copy <= 1 ? releasePrefix + id : releasePrefix + id + String(copySeparator) + String(copy)
    }

    /// The release id of a folder named `..r-<id>` or `..r-<id>@<n>`; nil for any other name.
    static func releaseID(ofFolder name: String) -> String? {
        guard name.hasPrefix(releasePrefix) else { return nil }
        let rest = name.dropFirst(releasePrefix.count)
        let parts = rest.split(separator: copySeparator, maxSplits: 1, omittingEmptySubsequences: false)
        guard let id = parts.first.map(String.init), ReleaseManifest.isSafeReleaseID(id) else { return nil }
        if parts.count == 2 {
            guard let copy = Int(parts[1]), copy >= 2, String(copy) == parts[1] else { return nil }
        }
        return id
    }

    /// The release id of a folder of the old layout, `..<id>`: any name that is none of the store's own and holds
    /// a safe id (whether it is a release is for its manifest to say).
    static func oldLayoutReleaseID(ofFolder name: String) -> String? {
        guard name.hasPrefix(".."), name != dataLink, name != stagingLink, name != lockName, name != sequenceName,
              !name.hasPrefix(temporaryPrefix) else { return nil }
        let id = String(name.dropFirst(2))
        return ReleaseManifest.isSafeReleaseID(id) ? id : nil
    }

    /// Whether `name` is a release folder of either layout for release `id`.
    static func isFolder(_ name: String, of id: String) -> Bool {
        releaseID(ofFolder: name) == id || name == ".." + id
    }
}
