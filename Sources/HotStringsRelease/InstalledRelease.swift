import LinuxSystem
import StringsFormat

/// A release installed in a bundle: its folder (`..r-<release>`, see `ReleaseStoreNames`), the manifest it was
/// installed from, and what the origin said about that manifest (the validators of conditional requests).
package struct InstalledRelease: Sendable, Equatable {
    /// The manifest, as verified at install time.
    package var manifest: ReleaseManifest
    /// When it was installed (microseconds since 1970, an integer so JSON keeps it exactly); orders the history
    /// for `rollback`.
    package var installedAt: Int
    /// The manifest response's `ETag`, sent back as `If-None-Match`.
    package var entityTag: String?
    /// The manifest response's `Last-Modified`, sent back as `If-Modified-Since`.
    package var lastModified: String?
    /// The manifest's URL.
    package var source: String?
    /// The id of the key whose signature the manifest had (as minisign prints it), when it was pulled with trusted
    /// keys; nil otherwise.
    package var signer: String?
    /// The folder's name in the bundle: `..r-<release>` unless the store chose another (`..r-<release>@2` for a
    /// release id installed again with other files) or read it from a bundle of the old layout (`..<release>`).
    package var folderName: String

    /// A release of `manifest` installed at `installedAt` (microseconds since 1970), in its usual folder.
    package init(manifest: ReleaseManifest, installedAt: Int, entityTag: String? = nil, lastModified: String? = nil,
                 source: String? = nil) {
        self.manifest = manifest
        folderName = ReleaseStoreNames.releaseFolder(manifest.release)
        self.installedAt = installedAt
        self.entityTag = entityTag
        self.lastModified = lastModified
        self.source = source
    }

    /// The release id.
    package var id: String { manifest.release }

    /// The name of the manifest copy inside a release folder.
    static let manifestName = ".manifest.json"
    /// The name of the install record inside a release folder.
    static let recordName = ".installed.json"

    /// Reads the release in `folder` (a complete one has both files; a folder without them is a leftover).
    static func read(folder: String) -> InstalledRelease? {
        guard let manifestBytes = try? FileSystem.readFile(atPath: folder + "/" + manifestName, maximumSize: 64 << 20),
              let manifest = try? ReleaseManifest.decode(manifestBytes, maximumFileSize: Int.max),
              let recordBytes = try? FileSystem.readFile(atPath: folder + "/" + recordName, maximumSize: 1 << 20),
              let record = try? ReleaseManifest.object(parsing: recordBytes, what: recordName),
              let installedAt = record["installedAt"]?.int64Value.flatMap(Int.init(exactly:))
        else { return nil }
        var release = InstalledRelease(manifest: manifest, installedAt: installedAt,
                                       entityTag: record["etag"]?.stringValue,
                                       lastModified: record["lastModified"]?.stringValue,
                                       source: record["source"]?.stringValue)
        release.signer = record["signer"]?.stringValue
        release.folderName = String(folder.split(separator: "/").last ?? "")
        return release
    }

    /// The install record's JSON: one line, members sorted by name, a final newline. (Records written before the
    /// project had one JSON writer escape `/` as `\/`; both read the same.)
    var recordJSON: [UInt8] {
        var members: [(String, JSONValue)] = []
        if let entityTag { members.append(("etag", .string(entityTag))) }
        members.append(("installedAt", .integer(installedAt)))
        if let lastModified { members.append(("lastModified", .string(lastModified))) }
        members.append(("release", .string(manifest.release)))
        if let signer { members.append(("signer", .string(signer))) }
        if let source { members.append(("source", .string(source))) }
        return JSONValue.object(members).serialized() + [0x0A]
    }
}
