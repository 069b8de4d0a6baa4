import LinuxSystem
import StringsFormat

extension ReleaseStore {
    /// The highest sequence a pull with trusted keys installed into the bundle, with its content, kept in
    /// `..sequence.json` beside the releases: neither a restart nor a local `rollback` lowers it, so an origin can
    /// never roll the bundle back by serving an older signed manifest.
    package struct HighestSequence: Sendable, Equatable {
        /// The sequence.
        package var sequence: Int
        /// The content digest of its manifest (`ReleaseManifest.contentDigest`): the same sequence with other
        /// content is refused.
        package var contentDigest: String

        /// A record.
        package init(sequence: Int, contentDigest: String) {
            self.sequence = sequence
            self.contentDigest = contentDigest
        }
    }

    /// The highest sequence recorded; nil before the first pull with trusted keys (or when the record is not
    /// readable: it is written atomically, so only a hand-edited one is).
    package func highestSequence() -> HighestSequence? {
        guard let bytes = try? FileSystem.readFile(atPath: bundle + "/" + Names.sequenceName, maximumSize: 4096),
              let record = try? ReleaseManifest.object(parsing: bytes, what: Names.sequenceName),
              let sequence = record["sequence"]?.int64Value.flatMap(Int.init(exactly:)),
              let digest = record["content"]?.stringValue else { return nil }
        return HighestSequence(sequence: sequence, contentDigest: digest)
    }

    /// Records `highest` (temporary file, flushed, renamed over the old record).
    /// - Throws: `ReleaseError.system` naming the file.
    package func record(_ highest: HighestSequence) throws(ReleaseError) {
        let path = bundle + "/" + Names.sequenceName
        let json = JSONValue.object([("content", .string(highest.contentDigest)),
                                     ("sequence", .integer(Int64(highest.sequence)))]).serialized() + [0x0A]
        try system("write \(path)") { try FileSystem.writeFileAtomically(json, toPath: path) }
    }

    /// Writes `release`'s manifest copy again (a new sequence and expiry of the same content), atomically.
    package func updateManifest(of release: InstalledRelease) throws(ReleaseError) {
        let path = bundle + "/" + release.folderName + "/" + InstalledRelease.manifestName
        try system("write \(path)") { try FileSystem.writeFileAtomically(release.manifest.json, toPath: path) }
    }
}
