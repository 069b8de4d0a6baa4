import BundleChanges
import Foundation
import LinuxSystem
import StringsFormat

/// `manifest.json` of a published release: which files make up the release, with their sizes and SHA-256
/// digests. The files themselves are published as `files/<sha256>`.
///
/// Decoding checks everything a puller relies on before it touches the disk: the format version, a release id
/// that is a safe folder name, file paths of the form `<language>.lproj/<file>` or `<table>.xcstrings` (a String
/// Catalog in the bundle's root) with no hidden or parent components and names the installer can write, digests
/// of 64 lowercase hex digits, sizes within the cap, and no path given twice.
package struct ReleaseManifest: Sendable, Equatable {
    /// The format this code writes and reads.
    package static let formatVersion = 1

    /// One file of the release.
    package struct File: Sendable, Equatable, Hashable {
        /// The path inside the bundle: `de.lproj/Localizable.strings`.
        package var path: String
        /// Its size in bytes.
        package var size: Int
        /// Its SHA-256, 64 lowercase hex digits; also its name under `files/`.
        package var sha256: String

        /// A file entry.
        package init(path: String, size: Int, sha256: String) {
            self.path = path
            self.size = size
            self.sha256 = sha256
        }

        /// The language folder the file is in (`de.lproj`); nil for a catalog in the bundle's root.
        package var folder: String? { isRootCatalog ? nil : String(path.prefix { $0 != "/" }) }

        /// Whether the file is a String Catalog in the bundle's root (`Settings.xcstrings`).
        package var isRootCatalog: Bool { !path.contains("/") }
    }

    /// The release's id: `<UTC time>-<12 hex digits of the content digest>`, a safe folder name.
    package var release: String
    /// When `publish` made it, ISO 8601 in UTC.
    package var created: String
    /// The files, sorted by path.
    package var files: [File]
    /// The publish's number in its output folder: the previous manifest's plus one (1 for the first). A puller
    /// with trusted keys refuses a sequence lower than the highest it installed (a rollback). Nil in manifests of
    /// earlier hotstrings.
    package var sequence: Int?
    /// When a signed manifest stops being installed (RFC 3339, UTC: `2026-01-31T00:00:00Z`), so that an origin
    /// cannot keep machines on a stale release for ever (a freeze); written by `publish --sign` only.
    package var expires: String?

    /// A manifest; `files` are sorted by path.
    package init(release: String, created: String, files: [File], sequence: Int? = nil, expires: String? = nil) {
        self.release = release
        self.created = created
        self.files = files.sorted { $0.path < $1.path }
        self.sequence = sequence
        self.expires = expires
    }

    /// The language folders the release has, sorted (`de.lproj`, `en.lproj`).
    package var folders: [String] { Array(Set(files.compactMap(\.folder))).sorted() }

    /// The String Catalogs the release has in the bundle's root, sorted (`Settings.xcstrings`).
    package var rootCatalogs: [String] { files.filter(\.isRootCatalog).map(\.path) }

    /// The bytes of all files together.
    package var totalSize: Int { files.reduce(0) { $0 + $1.size } }

    /// A digest of the file list alone (paths, sizes, digests), so two publishes of the same content agree.
    package var contentDigest: String {
        var text = ""
        for file in files { text += "\(file.path)\t\(file.size)\t\(file.sha256)\n" }
        return SHA256.hexDigest(Array(text.utf8))
    }

    // MARK: - JSON

    /// The manifest as pretty-printed JSON with a final newline: one member a line, one file a line. These are the
    /// bytes `publish` has always written (strings escaped by the project's one writer, `JSONWriter`), with
    /// `sequence` and `expires` after `created` when the manifest has them (readers that do not know them skip
    /// them).
    package var json: [UInt8] {
        let quoted = JSONWriter.quoted
        var text = "{\n  \"format\": \(Self.formatVersion),\n"
        text += "  \"release\": \(quoted(release)),\n  \"created\": \(quoted(created)),\n"
        if let sequence { text += "  \"sequence\": \(sequence),\n" }
        if let expires { text += "  \"expires\": \(quoted(expires)),\n" }
        text += "  \"files\": ["
        for (index, file) in files.enumerated() {
            text += index == 0 ? "\n" : ",\n"
            text += "    {\"path\": \(quoted(file.path)), \"size\": \(file.size), "
                + "\"sha256\": \(quoted(file.sha256))}"
        }
        text += files.isEmpty ? "]\n}\n" : "\n  ]\n}\n"
        return Array(text.utf8)
    }

    /// Reads and checks a manifest; at most `maximumFileSize` bytes per file.
    ///
    /// Read by the project's one JSON reader (`JSONValue(parsing:)`): strict RFC 8259 in UTF-8 (a byte order mark
    /// is skipped), nesting at most `JSONScanner.maximumDepth` deep. A member name given twice in one object is
    /// refused rather than resolved, so no two readers can take different releases from the same bytes.
    /// - Throws: `ReleaseError.invalidManifest` naming what is wrong (the line and column of a syntax error).
    package static func decode(_ bytes: [UInt8], maximumFileSize: Int = 16 << 20) throws(ReleaseError)
        -> ReleaseManifest {
        let top = try object(parsing: bytes, what: "manifest")
        guard let format = top["format"]?.int64Value else { throw .invalidManifest("no integer \"format\"") }
        guard format == formatVersion else {
            throw .invalidManifest("format \(format) is not supported (this hotstrings reads format \(formatVersion))")
        }
        guard let release = top["release"]?.stringValue, isSafeReleaseID(release) else {
            throw .invalidManifest("\"release\" must be letters, digits, '.', '_' or '-' (not first), at most 100")
        }
        guard let created = top["created"]?.stringValue else { throw .invalidManifest("no string \"created\"") }
        var sequence: Int?
        if let value = top["sequence"] {
            guard let number = value.int64Value.flatMap(Int.init(exactly:)), number >= 0 else {
                throw .invalidManifest("\"sequence\" must be a whole number, 0 or more")
            }
            sequence = number
        }
        var expires: String?
        if let value = top["expires"] {
            guard let text = value.stringValue, ReleaseTime.date(text) != nil else {
                throw .invalidManifest("\"expires\" must be an RFC 3339 time in UTC (2026-01-31T00:00:00Z)")
            }
            expires = text
        }
        guard let list = top["files"]?.arrayValue else { throw .invalidManifest("no array \"files\"") }
        var files: [File] = []
        var paths: Set<String> = []
        for (index, item) in list.enumerated() {
            guard let entry = try? members(of: item), let path = entry["path"]?.stringValue,
                  let size = entry["size"]?.int64Value.flatMap(Int.init(exactly:)),
                  let digest = entry["sha256"]?.stringValue else {
                throw .invalidManifest("files[\(index)] needs a string path, an integer size and a string sha256")
            }
            if let name = path.split(separator: "/").first(where: { $0.utf8.count > longestName }) {
                throw .invalidManifest("files[\(index)]: '\(path.prefix(60))…' has a name of \(name.utf8.count) "
                    + "bytes: the installer writes names of at most \(longestName) bytes")
            }
            guard isSafeBundlePath(path) else {
                throw .invalidManifest(
                    "files[\(index)]: path '\(path)' is not <language>.lproj/<file> or <table>.xcstrings")
            }
            guard (0...maximumFileSize).contains(size) else {
                throw .invalidManifest("files[\(index)] (\(path)): size \(size) is over the cap of \(maximumFileSize)")
            }
            guard isDigest(digest) else {
                throw .invalidManifest("files[\(index)] (\(path)): sha256 is not 64 lowercase hex digits")
            }
            guard paths.insert(path).inserted else { throw .invalidManifest("files: '\(path)' is listed twice") }
            files.append(File(path: path, size: size, sha256: digest))
        }
        return ReleaseManifest(release: release, created: created, files: files, sequence: sequence, expires: expires)
    }

    /// When the manifest expires; nil when it has no `expires`.
    package var expiryDate: Date? { expires.flatMap(ReleaseTime.date) }

    /// The JSON object `bytes` hold, its members by name; `what` names the file in errors.
    /// - Throws: `ReleaseError.invalidManifest` for bytes that are not JSON (naming line and column), a value that
    ///   is not an object, or a member name given twice.
    static func object(parsing bytes: [UInt8], what: String) throws(ReleaseError) -> [String: JSONValue] {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let value: JSONValue
        do {
            value = try JSONValue(parsing: text)
        } catch {
            let place = error.location(in: text)
            throw .invalidManifest("not JSON: \(error.reason) at line \(place.line), column \(place.column)")
        }
        do {
            return try members(of: value)
        } catch {
            throw .invalidManifest(error == .notAnObject ? "not a JSON object" : "\(what): \(error)")
        }
    }

    /// Why an object's members are not a map: not an object, or a name twice.
    enum MembersError: Error, Equatable, CustomStringConvertible {
        case notAnObject
        case repeated(String)

        var description: String {
            switch self {
            case .notAnObject: "not a JSON object"
            case .repeated(let name): "member \"\(name)\" is given twice"
            }
        }
    }

    /// The members of a JSON object by name; a name given twice is an error.
    static func members(of value: JSONValue) throws(MembersError) -> [String: JSONValue] {
        guard let list = value.objectMembers else { throw .notAnObject }
        var members: [String: JSONValue] = [:]
        for (name, member) in list {
            guard members.updateValue(member, forKey: name) == nil else { throw .repeated(name) }
        }
        return members
    }

    /// Whether `id` can be a folder name `..<id>` in a bundle.
    package static func isSafeReleaseID(_ id: String) -> Bool {
        guard let first = id.utf8.first, first != UInt8(ascii: "."), first != UInt8(ascii: "-"), id.utf8.count <= 100
        else { return false }
        return id.utf8.allSatisfy { isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_")
            || $0 == UInt8(ascii: "-") }
    }

    /// The longest name a component of a file's path may have, in bytes: what the installer can write (its
    /// temporary name adds to the name, and no name may be longer than 255 bytes).
    package static let longestName = FileSystem.longestAtomicallyWrittenName

    /// Whether `path` is a file of a language folder, `<language>.lproj/<file>` (two components), or a String
    /// Catalog in the root, `<table>.xcstrings` (one), by the names the watcher serves (`BundleNames`: the folder a
    /// language folder, no component hidden, a backup or an editor's temporary name); no component longer than
    /// `longestName`, printable ASCII or any non-ASCII, no control characters.
    package static func isSafeBundlePath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        switch parts.count {
        case 1: guard BundleNames.catalogTable(ofFile: parts[0]) != nil else { return false }
        case 2: guard BundleNames.language(ofFolder: parts[0]) != nil, BundleNames.ignored(parts[1]) == nil,
                      !parts[1].isEmpty else { return false }
        default: return false
        }
        return parts.allSatisfy { part in
            part.utf8.count <= longestName && part.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F }
        }
    }

    /// Whether `text` is 64 lowercase hex digits.
    package static func isDigest(_ text: String) -> Bool {
        text.utf8.count == 64 && text.utf8.allSatisfy {
            ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9")) || ($0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "f"))
        }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
