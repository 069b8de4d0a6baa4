@testable import HotStringsFront
import HotStringsLog
import HotStringsService
import LinuxSystem
import Synchronization
import Testing

/// What the I/O loop reported to the core, in the loop tests' words.
enum LoopReport: Equatable, Sendable {
    case request(UInt64, String)
    case closed(UInt64)
    case overflowed(UInt64)
    case caughtUp(UInt64)
    /// A typed request (the page's calls and event streams), by what it asks.
    case typedRequest(UInt64, String)
}

/// A real `IOLoop` over fake sockets (`EmbeddedLoopIO`), run one pass at a time on the test's thread, with the test
/// playing the core: it reads what the loop reported and hands it outputs, as swift-nio tests drive a handler on an
/// `EmbeddedChannel`. Time is the harness's own (`now`, moved by `advance`), so deadlines are tested without waiting.
///
/// The one file of the loop's tests that names the loop's message types (`ServiceInput`, `ServiceOutput`), so a
/// change of those types is mended here alone.
final class LoopHarness {
    /// A client's connection ID, as the loop numbers them.
    typealias ID = UInt64

    let io = EmbeddedLoopIO()
    let loop: IOLoop
    /// The Unix socket's listener.
    let listener: Int32
    /// The page's rules and listener, when it serves the page.
    let page: WebServer?
    private(set) var state: IOLoop.State
    private let log = ReportLog()
    /// The loop's clock.
    private(set) var now = ContinuousClock.now
    /// Whether the loop has finished (after `stop`).
    private(set) var hasFinished = false

    /// A loop with `limits`, over a Unix socket listener, and over a page's listener when `servesPage`, whose token is
    /// `Self.token`.
    init(limits: IOLoop.Limits = IOLoop.Limits(), servesPage: Bool = false,
         pageLimits: WebServer.Limits = WebServer.Limits()) throws {
        listener = io.makeListener()
        if servesPage {
            var server = WebServer(listener: io.makeListener(), access: WebAccess(token: Self.token, port: Self.port))
            server.limits = pageLimits
            page = server
        } else {
            page = nil
        }
        let log = log
        loop = try IOLoop(io: io, listener: listener, limits: limits, web: page, log: .discarding,
                          admits: { $0.userID != 666 },
                          toCore: { input in
            let report: LoopReport? = switch input {
            case .requestLine(let id, let line): .request(id, String(decoding: line, as: UTF8.self))
            case .request(let id, _, let request): .typedRequest(id, "\(request)")
            case .closed(let id): .closed(id)
            case .overflowed(let id): .overflowed(id)
            case .caughtUp(let id): .caughtUp(id)
            case .batch, .problems, .subscribe, .workDone: nil  // never from the loop
            }
            if let report { log.append(report) }
        })
        state = IOLoop.State(loop)
    }

    /// The page's token.
    static let token = "0123456789abcdef0123456789abcdef"
    /// The page's port, as `Host` names it.
    static let port: UInt16 = 8123

    // MARK: - Turning the loop

    /// One pass of the loop at `now`: what it waits for, the wait (which returns at once), the pass.
    func turn() {
        guard !hasFinished else { return }
        guard case .wait(let timeout) = loop.prepare(&state, at: now) else {
            hasFinished = true
            return
        }
        let ready = (try? io.wait(timeout: timeout)) ?? []
        loop.pass(ready, &state, at: now)
    }

    /// Turns the loop until a wait finds nothing ready and nothing is submitted (at most `limit` passes: a loop that
    /// never rests, say a ready descriptor it ignores, fails the test).
    func settle(limit: Int = 1_000, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<limit {
            turn()
            if hasFinished || io.readyDescriptors.isEmpty { return }
        }
        Issue.record("the loop was still busy after \(limit) passes; ready: \(io.readyDescriptors)",
                     sourceLocation: sourceLocation)
    }

    /// Moves the loop's clock on by `duration`.
    func advance(by duration: Duration) {
        now = now + duration
    }

    // MARK: - What the loop reported

    /// Everything reported so far, in order.
    var reports: [LoopReport] { log.reports }

    /// The request lines reported for `id`, in order.
    func requests(from id: ID) -> [String] {
        reports.compactMap { if case .request(id, let line) = $0 { line } else { nil } }
    }

    /// Whether `report` was reported.
    func hasReported(_ report: LoopReport) -> Bool { reports.contains(report) }

    // MARK: - Clients

    /// A client: the loop's end's descriptor and the ID the loop gave it.
    struct Client {
        let fd: Int32
        let id: ID
    }

    /// Connects a socket client and lets the loop accept it.
    func connect(userID: UInt32 = 1000) -> Client? {
        let fd = io.connect(to: listener, as: PeerCredentials(processID: 1, userID: userID, groupID: userID))
        settle()
        guard let id = state.table[fd]?.connection.id else { return nil }
        return Client(fd: fd, id: id)
    }

    /// Connects a client of the page and lets the loop accept it.
    func connectToPage() -> Client? {
        guard let page else { return nil }
        let fd = io.connect(to: page.listener)
        settle()
        guard let id = state.table[fd]?.connection.id else { return nil }
        return Client(fd: fd, id: id)
    }

    /// The client sends `text` and a newline.
    func send(_ client: Client, _ text: String) { io.send(Array((text + "\n").utf8), on: client.fd) }

    /// The client sends `bytes`.
    func send(_ client: Client, bytes: [UInt8]) { io.send(bytes, on: client.fd) }

    /// The complete lines the loop wrote to the client and it has not read, without their newlines.
    func lines(_ client: Client) -> [String] {
        var bytes = io.read(client.fd)
        var lines: [String] = []
        while let newline = bytes.firstIndex(of: 0x0A) {
            lines.append(String(decoding: bytes[..<newline], as: UTF8.self))
            bytes.removeSubrange(...newline)
        }
        precondition(bytes.isEmpty, "a torn line: \(bytes.count) bytes after the last newline")
        return lines
    }

    /// Whether the loop has closed the client's connection.
    func isClosed(_ client: Client) -> Bool { io.socket(client.fd)?.loopClosed ?? true }

    // MARK: - Outputs, as the core gives them

    /// Hands the loop outputs, as the core does after each input.
    func submit(_ outputs: [ServiceOutput<WireLines>]) { loop.submit(outputs) }

    /// Answers one request of `id`.
    func answer(_ id: ID, _ bytes: [UInt8]) { submit([.response(id, bytes)]) }

    /// Answers several requests of `id` in one hand-over.
    func answer(_ id: ID, _ answers: [[UInt8]]) { submit(answers.map { .response(id, $0) }) }

    /// Queues bytes the client asked for besides an answer (a snapshot on subscribing).
    func send(_ id: ID, _ bytes: [UInt8]) { submit([.snapshot(id, bytes)]) }

    /// Queues one event for `ids`, subject to each one's event cap.
    func broadcast(_ bytes: [UInt8], to ids: [ID]) { submit([.event(bytes, to: ids)]) }

    /// Queues the `resync` line for a client the loop reported overflowed.
    func resync(_ id: ID, _ line: [UInt8]) { submit([.slowClientResync(id, line)]) }

    /// Queues the snapshot that ends a client's resync.
    func snapshot(_ id: ID, _ bytes: [UInt8]) { submit([.slowClientSnapshot(id, bytes)]) }

    /// Tells the loop that the core handed the requests of `ids` to a worker.
    func offCore(_ ids: [ID]) { submit(ids.map { .offCore($0) }) }

    /// Asks the loop to stop, with `grace` to flush.
    func stop(grace: Duration) { loop.stop(grace: grace) }
}

/// A line of `size` bytes (newline included) that starts with `label`, as a big answer or event.
func paddedLine(_ label: String, size: Int) -> [UInt8] {
    let head = Array((label + " ").utf8)
    return head + [UInt8](repeating: 0x78, count: max(0, size - head.count - 1)) + [0x0A]
}

/// `text` and a newline.
func line(_ text: String) -> [UInt8] { Array((text + "\n").utf8) }

/// What the loop reported to the core, in order.
private final class ReportLog: Sendable {
    private let entries = Mutex<[LoopReport]>([])

    func append(_ report: LoopReport) { entries.withLock { $0.append(report) } }
    var reports: [LoopReport] { entries.withLock { $0 } }
}
