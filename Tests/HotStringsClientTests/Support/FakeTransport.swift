import BundleChanges
import HotStringsProtocol
import StringsFormat
import Synchronization
@testable import HotStringsClient

/// A transport the test drives by hand: events are delivered on the caller's thread, commands are recorded,
/// and requests are answered by `answer`.
final class FakeTransport: HotStringsTransport {
    private struct State {
        var handler: (@Sendable (TransportEvent) -> Void)?
        var commands: [TransportCommand] = []
        var requests: [Request] = []
        var isStopped = false
    }

    private let state = Mutex(State())
    private let answer: @Sendable (FakeTransport, Request) -> Result<Answer, LiveStringsError>

    /// A transport whose requests get `answer`'s result; by default every request succeeds with an answer without
    /// members (what the client's own `report-missing` gets).
    init(answer: @escaping @Sendable (FakeTransport, Request) -> Result<Answer, LiveStringsError>
            = { _, _ in .success(.missingReported) }) {
        self.answer = answer
    }

    func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        state.withLock { $0.handler = handler }
    }

    func send(_ command: TransportCommand) {
        state.withLock { $0.commands.append(command) }
    }

    func request(_ request: Request) async throws(LiveStringsError) -> Answer {
        state.withLock { $0.requests.append(request) }
        return try answer(self, request).get()
    }

    func stop() {
        state.withLock { $0.isStopped = true }
    }

    /// Whether `stop()` was called.
    var isStopped: Bool { state.withLock { $0.isStopped } }

    /// The requests made so far.
    var requests: [Request] { state.withLock { $0.requests } }

    /// Returns the commands sent since the last call.
    func takeCommands() -> [TransportCommand] {
        state.withLock { state in
            defer { state.commands = [] }
            return state.commands
        }
    }

    /// Delivers `event` to the client, on this thread.
    func emit(_ event: TransportEvent) {
        let handler = state.withLock { $0.handler }
        handler?(event)
    }

    /// Delivers a server event at `seq` of `epoch`.
    func emit(_ event: ServerEvent, seq: UInt64, epoch: UInt64 = Fixtures.epoch) {
        emit(.event(epoch: epoch, seq: seq, event))
    }

    /// A whole handshake: `.connected`, a snapshot of `tables` at `seq`, and the server's facts.
    func connect(_ tables: [String: [String: String]] = Fixtures.bundle, seq: UInt64 = 1,
                 epoch: UInt64 = Fixtures.epoch, selected: String? = nil) {
        emit(.connected)
        emit(.snapshot(tables: Fixtures.payloads(tables)), seq: seq, epoch: epoch)
        emit(.serverInfo(Fixtures.info(tables, selected: selected)))
    }
}

/// Tables and payloads for tests.
enum Fixtures {
    static let epoch: UInt64 = 4242

    /// A small bundle: `"language/Table"` → entries.
    static let bundle: [String: [String: String]] = [
        "Base/Localizable": ["greeting": "Hi (Base)", "only.base": "B", "button.ok": "OK"],
        "en/Localizable": ["greeting": "Hello", "only.en": "E", "button.ok": "OK",
                           "messages.received": "%1$@ sent you %2$d messages"],
        "de/Localizable": ["greeting": "Hallo", "only.de": "D", "button.ok": "OK",
                           "messages.received": "%1$@ hat dir %2$d Nachrichten geschickt"],
        "de-CH/Localizable": ["greeting": "Grüezi"],
        "fr/Localizable": ["greeting": "Bonjour", "only.fr": "F", "button.ok": "OK",
                           "messages.received": "%2$d messages de la part de %1$@"],
        "fr/InfoPlist": ["CFBundleName": "Démo"],
        "zh-Hans/Localizable": ["greeting": "你好"],
    ]

    /// Splits `"language/Table"`.
    static func id(_ name: String) -> (language: String, table: String) {
        let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
        return (parts[0], parts[1])
    }

    /// Snapshot payloads for `tables`, sorted by name.
    static func payloads(_ tables: [String: [String: String]]) -> [TablePayload] {
        tables.sorted { $0.key < $1.key }.map { name, entries in
            let (language, table) = id(name)
            return TablePayload(language: LanguageTag(language)!, table: table, file: "\(language).lproj/\(table).strings",
                                entries: entries.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    /// The `languages` facts of `tables`.
    static func info(_ tables: [String: [String: String]], selected: String? = nil,
                     development: String = "en") -> ServerInfo {
        let languages = Set(tables.keys.map { id($0).language }).sorted()
        return ServerInfo(languages: languages, selectedLanguage: selected, developmentLanguage: development)
    }

    /// An `updated` change of `name` (`"language/Table"`).
    static func update(_ name: String, added: [String: String] = [:], changed: [String: String] = [:],
                       removed: [String] = [], kind: ChangeKind = .updated) -> ChangePayload {
        let (language, table) = id(name)
        return ChangePayload(language: LanguageTag(language)!, table: table, file: "\(language).lproj/\(table).strings",
                             kind: kind, added: added.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                             changed: changed.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                             removed: removed)
    }
}

/// Collects the changes a client reports.
final class ChangeRecorder: Sendable {
    private let changes = Mutex<[LocalizationChange]>([])

    /// Records every change of `strings` until the returned token is released.
    func record(_ strings: LiveStrings) -> ReloadToken {
        strings.onReload { [self] change in changes.withLock { $0.append(change) } }
    }

    /// Returns the changes recorded since the last call.
    func take() -> [LocalizationChange] {
        changes.withLock { changes in
            defer { changes = [] }
            return changes
        }
    }
}

/// A client over a fake transport with `environment` as its environment.
func makeClient(environment: [String: String] = [:], languages: [String]? = nil,
                transport: FakeTransport = FakeTransport()) -> (LiveStrings, FakeTransport) {
    let configuration = LiveStrings.Configuration(languages: languages, environment: environment)
    return (LiveStrings(transport: transport, configuration: configuration), transport)
}
