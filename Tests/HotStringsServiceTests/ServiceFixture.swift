import BundleChanges
@testable import BundleWatcher
import HotStringsProtocol
import HotStringsService
import StringsFormat
import StringsStore
import Synchronization
import Testing

/// An event as the in-memory tests see it: its position and typed payload.
struct TypedEvent: Sendable, Equatable {
    var epoch: UInt64
    var seq: UInt64
    var event: ServerEvent
}

/// Renders events as `TypedEvent`s, so tests read them without parsing lines.
enum TypedEvents: EventRendering {
    static func render(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> TypedEvent {
        TypedEvent(epoch: epoch, seq: seq, event: event)
    }

    static func size(of rendered: TypedEvent) -> Int {
        guard case .snapshot(let tables) = rendered.event else { return 64 }
        return tables.reduce(0) { $0 + $1.entries.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count } }
    }
}

/// Saves selections in memory, or fails as told (a full disk, a directory in the way).
final class SelectionRecorder: Sendable {
    struct Refused: Error, CustomStringConvertible {
        var description: String
    }

    private let state = Mutex<(saved: [String?], failure: String?)>(([], nil))

    /// What was saved, in order.
    var saved: [String?] { state.withLock { $0.saved } }

    /// Makes the next saves fail with `reason` (nil: succeed again).
    func fail(with reason: String?) { state.withLock { $0.failure = reason } }

    /// The saver to give the service.
    func save(_ language: String?) throws {
        try state.withLock { state in
            if let failure = state.failure { throw Refused(description: failure) }
            state.saved.append(language)
        }
    }
}

/// A protocol service over an in-memory store, fed batches built here: no watcher, no socket, no disk.
final class ServiceFixture {
    let store = StringsStore(developmentLanguage: "en")
    let service: ProtocolService<TypedEvents>
    let selection = SelectionRecorder()
    private var nextRequestID: Int64 = 1

    init(cacheLimits: SnapshotCacheLimits = SnapshotCacheLimits()) {
        var environment = ProtocolService<TypedEvents>.Environment(
            root: "/bundle",
            watcherStatus: {
                WatcherStatus(root: "/bundle", isRootPresent: true, watchedDirectories: 4, files: 3, pendingPaths: 0)
            },
            connectionCount: { 2 })
        environment.snapshotCacheLimits = cacheLimits
        let selection = selection
        environment.saveSelection = { try selection.save($0) }
        service = ProtocolService(store: store, environment: environment)
    }

    /// The tables of the sample used by most tests: `en` and `de` `Localizable`, `en` `InfoPlist`.
    static let sample: [String: String] = [
        "en/Localizable": #""greeting" = "Hello!"; "farewell" = "Bye";"#,
        "de/Localizable": #""greeting" = "Hallo!";"#,
        "en/InfoPlist": #""CFBundleName" = "Demo";"#,
    ]

    /// A watcher batch with `tables` ("language/Table" → text; nil text: removed).
    static func batch(_ tables: [String: String?], isFullScan: Bool = false) throws -> ChangeBatch {
        var batch = ChangeBatch()
        batch.isFullScan = isFullScan
        for (name, text) in tables.sorted(by: { $0.key < $1.key }) {
            let parts = name.split(separator: "/").map(String.init)
            let id = TableID(language: try #require(LanguageTag(parts[0])), table: parts[1])
            let content: TableUpdate.Content =
                try text.map { .parsed(TableContent(strings: try StringsFile.parse(text: $0))) } ?? .removed
            batch.updates.append(TableUpdate(id: id, file: "\(parts[0]).lproj/\(parts[1]).strings", content: content))
        }
        return batch
    }

    /// Applies the first scan of `tables`.
    @discardableResult
    func scan(_ tables: [String: String] = ServiceFixture.sample) async throws -> [ServiceOutput<TypedEvents>] {
        await service.handle(.batch(try Self.batch(tables.mapValues { $0 }, isFullScan: true)))
    }

    /// Sends `request` from `client` and returns every output.
    func send(_ request: Request, from client: ClientID = 1) async -> [ServiceOutput<TypedEvents>] {
        defer { nextRequestID += 1 }
        return await service.handle(.request(client, .number(nextRequestID), request))
    }

    /// Sends `request` and returns its answer's members as the wire carries them; throws when it failed.
    func answer(_ request: Request, from client: ClientID = 1) async throws -> [String: JSONValue] {
        let outputs = await send(request, from: client)
        let result = try #require(outputs.lazy.compactMap(\.response).first)
        return try Self.members(of: result.get())
    }

    /// `answer`'s members as a daemon writes them and a client reads them back: encoded, then decoded.
    static func members(of answer: Answer) throws -> [String: JSONValue] {
        let members = try #require(AnswerFields(answer).json.objectMembers)
        return Dictionary(members, uniquingKeysWith: { $1 })
    }

    /// Sends `request` and returns the error it was answered with.
    func error(_ request: Request, from client: ClientID = 1) async throws -> ProtocolError {
        let outputs = await send(request, from: client)
        let result = try #require(outputs.lazy.compactMap(\.response).first)
        guard case .failure(let error) = result else { throw Unexpected(description: "\(request) succeeded") }
        return error
    }
}

struct Unexpected: Error, CustomStringConvertible {
    var description: String
}

extension ServiceOutput where Rendering.RenderedAnswer == ServiceAnswer {
    /// The result of a `.response`.
    var response: Result<Answer, ProtocolError>? {
        if case .response(_, let answer) = self { answer.result } else { nil }
    }

    /// A short name of the output's kind, for asserting on order.
    var kind: String {
        switch self {
        case .firstScanServed: "firstScanServed"
        case .response: "response"
        case .event: "event"
        case .snapshot: "snapshot"
        case .slowClientResync: "slowClientResync"
        case .slowClientSnapshot: "slowClientSnapshot"
        case .offCore: "offCore"
        }
    }
}

extension ServiceOutput where Rendering == TypedEvents {
    /// The event with its audience, for `.event`, `.snapshot` and the slow-client outputs.
    var delivered: (event: TypedEvent, to: [ClientID])? {
        switch self {
        case .event(let event, let clients): (event, clients.sorted())
        case .snapshot(let client, let event), .slowClientResync(let client, let event),
             .slowClientSnapshot(let client, let event): (event, [client])
        case .firstScanServed, .response, .offCore: nil
        }
    }
}
