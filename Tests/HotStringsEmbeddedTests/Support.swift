import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsProtocol
import HotStringsTestSupport
import StringsFormat
import Synchronization
import Testing

/// A temporary copy of `sample-bundle` with an embedded client on it; stopped and removed on release.
final class EmbeddedBundle {
    static let german = "de.lproj/Localizable.strings"

    let root: String
    var bundle: String { root + "/bundle" }
    let transport: EmbeddedTransport
    let strings: LiveStrings
    let probe = ChangeProbe()
    private var token: ReloadToken?

    /// Copies the bundle and starts a client whose environment says `LANG=language`.
    init(language: String = "de_CH.UTF-8", stateDirectory: String? = nil,
         options: LiveStrings.EmbeddedOptions = LiveStrings.EmbeddedOptions()) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hs-embedded-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: root + "/bundle")
        var options = options
        options.stateDirectory = options.stateDirectory ?? stateDirectory
        transport = try EmbeddedTransport(bundle: root + "/bundle", options: options)
        strings = LiveStrings(transport: transport,
                              configuration: LiveStrings.Configuration(environment: ["LANG": language]))
        token = strings.onReload { [probe] change in probe.record(change) }
    }

    deinit {
        strings.stop()
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Replaces `path` (relative to the bundle) the way editors save: a temporary file renamed over it.
    func save(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: bundle + "/" + path), options: .atomic)
    }

    /// The German table's text with `replacements` applied and `appended` added at the end.
    func german(_ replacements: [String: String], appending appended: String = "") throws -> String {
        var text = try String(contentsOfFile: bundle + "/" + Self.german, encoding: .utf8)
        for (old, new) in replacements {
            try #require(text.contains(old))
            text = text.replacingOccurrences(of: old, with: new)
        }
        return text + appended
    }
}

/// Records what the reload hooks report.
final class ChangeProbe: Sendable {
    private let state = Mutex<[LocalizationChange]>([])

    /// All changes so far.
    var changes: [LocalizationChange] { state.withLock { $0 } }

    /// Records a change.
    func record(_ change: LocalizationChange) {
        state.withLock { $0.append(change) }
    }
}

extension Answer {
    /// The member `name` as a daemon writes it (`nil` when absent): what the tests check an answer carries.
    subscript(name: String) -> JSONValue? { AnswerFields(self).json[name] }
}
