import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsProtocol
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Synchronization
import Testing

/// The two ways to reach the protocol service: the daemon over its socket, the embedded transport in process.
enum ServiceTransport: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case daemon
    case embedded

    var testDescription: String { rawValue }

    /// Starts the service on `sandbox`'s bundle, saving selections in `stateDirectory`, and waits until it
    /// answers.
    func start(_ sandbox: Sandbox, stateDirectory: String? = nil) async throws -> any ServiceEndpoint {
        let state = stateDirectory ?? sandbox.stateDirectory
        switch self {
        case .daemon:
            // The start waits for the daemon's socket: off the cooperative pool, as every blocking wait here.
            nonisolated(unsafe) let sandbox = sandbox
            return try await offThePool { try DaemonEndpoint(sandbox, stateDirectory: state) }
        case .embedded: return try await EmbeddedEndpoint(sandbox, stateDirectory: state)
        }
    }
}

/// An event as both transports deliver it.
struct ReceivedEvent: Sendable, Equatable {
    var epoch: UInt64
    var seq: UInt64
    var event: ServerEvent
}

/// One client of a running service, whichever transport carries it.
protocol ServiceEndpoint: AnyObject {
    /// Sends `request` and returns its answer's members, or the error it was answered with.
    func request(_ request: Request) async throws -> Result<[String: JSONValue], ProtocolError>
    /// The next event for this client, waiting up to a few seconds.
    func nextEvent() async throws -> ReceivedEvent
    /// Stops the service (the daemon with SIGTERM, the embedded transport with `stop()`).
    func stop() async throws
}

extension ServiceEndpoint {
    /// The answer's members; throws when `request` was refused.
    func answer(_ request: Request) async throws -> [String: JSONValue] {
        try await self.request(request).get()
    }

    /// The error `request` was refused with; throws when it succeeded.
    func error(_ request: Request) async throws -> ProtocolError {
        guard case .failure(let error) = try await self.request(request) else {
            throw ClientError(description: "\(request.op) succeeded")
        }
        return error
    }

    /// The next event that is not an `error` event (a save in progress may be read half-written).
    func nextEvent(skippingErrors: Bool) async throws -> ReceivedEvent {
        while true {
            let event = try await nextEvent()
            if skippingErrors, case .error = event.event { continue }
            return event
        }
    }
}

/// A `hotstrings serve` process and one socket connection to it.
/// Its requests and reads block on the socket, so each runs on a thread of its own (`offThePool`): an
/// asynchronous test awaiting them never holds one of the cooperative pool's threads (two on a 2-core machine)
/// that other tests' tasks need. `@unchecked Sendable`: one test uses an endpoint, one call at a time.
final class DaemonEndpoint: ServiceEndpoint, @unchecked Sendable {
    let daemon: DaemonProcess
    let client: LineClient
    private var nextID: Int64 = 1
    private var events: [ReceivedEvent] = []
    /// Events that arrived between sending the last request and reading its answer.
    private(set) var eventsBeforeLastAnswer: [ReceivedEvent] = []

    init(_ sandbox: Sandbox, stateDirectory: String) throws {
        daemon = try DaemonProcess.serving(sandbox, arguments: ["--state-dir", stateDirectory])
        client = try LineClient(socket: sandbox.socket)
    }

    func request(_ request: Request) async throws -> Result<[String: JSONValue], ProtocolError> {
        try await offThePool { [self] in try blockingRequest(request) }
    }

    func nextEvent() async throws -> ReceivedEvent {
        try await offThePool { [self] in try blockingNextEvent() }
    }

    func stop() async throws {
        try await offThePool { [self] in
            client.close()
            _ = try daemon.terminate()
        }
    }

    private func blockingRequest(_ request: Request) throws -> Result<[String: JSONValue], ProtocolError> {
        let id = nextID
        nextID += 1
        try client.send(bytes: RequestEncoder.encode(id: .number(id), request))
        let before = events.count
        while true {
            switch try ServerMessage.decode(try client.nextLine()) {
            case .response(.number(id)?, let result):
                eventsBeforeLastAnswer = Array(events[before...])
                return result.map(\.byName)
            case .response(let other, _):
                throw ClientError(description: "an answer to \(String(describing: other)), not \(id)")
            case .event(let name, let epoch, let seq, let body):
                events.append(ReceivedEvent(epoch: epoch, seq: seq, event: try ServerEvent(name: name, body: body)))
            }
        }
    }

    private func blockingNextEvent() throws -> ReceivedEvent {
        if !events.isEmpty { return events.removeFirst() }
        guard case .event(let name, let epoch, let seq, let body) = try ServerMessage.decode(try client.nextLine())
        else { throw ClientError(description: "an answer where an event was expected") }
        return ReceivedEvent(epoch: epoch, seq: seq, event: try ServerEvent(name: name, body: body))
    }

}

/// An `EmbeddedTransport` on the sandbox's bundle, talked to as the client's engine does.
final class EmbeddedEndpoint: ServiceEndpoint {
    let transport: EmbeddedTransport
    private let received = TransportEventQueue()

    init(_ sandbox: Sandbox, stateDirectory: String) async throws {
        transport = try EmbeddedTransport(bundle: sandbox.bundle,
                                          options: LiveStrings.EmbeddedOptions(stateDirectory: stateDirectory))
        transport.start { [received] event in received.events.withLock { $0.append(event) } }
        try await waitFor("the connection") { $0 == .connected }
        // The handshake the engine makes; requests are answered once it is complete.
        transport.send(.refreshServerInfo)
        try await waitFor("the server info") { if case .serverInfo = $0 { true } else { false } }
    }

    deinit { transport.stop() }

    func request(_ request: Request) async throws -> Result<[String: JSONValue], ProtocolError> {
        do {
            return .success(AnswerFields(try await transport.request(request)).byName)
        } catch {
            guard error.code == .rejected, let code = error.rejectionCode, let message = error.message else {
                throw error
            }
            return .failure(ProtocolError(ProtocolError.Code(rawValue: code) ?? .internal, message,
                                          available: error.availableLanguages))
        }
    }

    func nextEvent() async throws -> ReceivedEvent {
        var next: ReceivedEvent?
        try await waitFor("an event") { event in
            guard case .event(let epoch, let seq, let payload) = event else { return false }
            next = ReceivedEvent(epoch: epoch, seq: seq, event: payload)
            return true
        }
        return try #require(next)
    }

    func stop() {
        transport.stop()
    }

    /// Takes transport events in order until one matches `isWanted` (those before it are dropped).
    private func waitFor(_ what: String, _ isWanted: (TransportEvent) -> Bool) async throws {
        try await pollUntil(what, timeout: .seconds(10)) {
            received.events.withLock { events in
                while !events.isEmpty {
                    if isWanted(events.removeFirst()) { return true }
                }
                return false
            }
        }
    }
}

/// What the embedded transport delivered and the test has not taken yet.
final class TransportEventQueue: Sendable {
    let events = Mutex<[TransportEvent]>([])
}

extension AnswerFields {
    /// The members by name (the last of a repeated name), for tests of what the wire carries.
    var byName: [String: JSONValue] { Dictionary(json.objectMembers ?? [], uniquingKeysWith: { $1 }) }
}
