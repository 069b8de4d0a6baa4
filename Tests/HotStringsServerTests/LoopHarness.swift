@testable import HotStringsFront
import HotStringsService
import HotStringsTestSupport
import LinuxSystem
import Synchronization

/// What the I/O loop reported to the core, in the loop tests' words.
enum LoopReport: Equatable, Sendable {
    case opened(UInt64)
    case request(UInt64, String)
    case closed(UInt64)
    case overflowed(UInt64)
    case caughtUp(UInt64)
}

/// A real `IOLoop` on its own thread, listening in a temporary directory, with the test playing the core: it
/// reads what the loop reports and hands it commands, as swift-nio tests drive a handler on an `EmbeddedChannel`.
///
/// The one file of the loop's tests that names the loop's message types (`ServiceInput`, `ServiceOutput`), so a
/// change of those types is mended here alone. The loop reports no connection opening (the service has no use
/// for it): `connect()` has each client send `hello` first, reported here as `.opened`, and answered.
final class LoopHarness {
    /// A client's connection ID, as the loop numbers them.
    typealias ID = UInt64

    let loop: IOLoop
    let socketPath: String
    private let directory: String
    private let listener: Int32
    private let log: ReportLog
    private var thread: NamedThread?
    /// A client the harness keeps to tell when the loop has applied the commands submitted so far.
    private var probe: (client: LineClient, id: ID)?
    private var probeRound = 0

    /// Starts a loop with `limits` on a fresh socket.
    init(limits: IOLoop.Limits = IOLoop.Limits()) throws {
        directory = try FileSystem.makeTemporaryDirectory(prefix: "hs-loop-")
        socketPath = directory + "/loop.sock"
        listener = try UnixSocket.listen(atPath: socketPath)
        let log = ReportLog()
        self.log = log
        loop = try IOLoop(listener: listener, limits: limits, log: .discarding,
                          admits: { _ in true }, toCore: { input in
            switch input {
            case .requestLine(let id, let line):
                let text = String(decoding: line, as: UTF8.self)
                log.append(text == Self.hello ? .opened(id) : .request(id, text))
            case .closed(let id): log.append(.closed(id))
            case .overflowed(let id): log.append(.overflowed(id))
            case .caughtUp(let id): log.append(.caughtUp(id))
            case .request, .batch, .problems, .subscribe, .workDone: break  // never from the loop
            }
        })
        let loop = self.loop
        thread = NamedThread.run(name: "test-io-loop") {
            loop.run()
            log.hasReturned.store(true, ordering: .releasing)
        }
        probe = try connect()
    }

    deinit {
        _ = try? stop(grace: .zero)
        SocketIO.close(listener)
        try? FileSystem.removeRecursively(atPath: directory)
    }

    // MARK: - What the loop reported

    /// Everything reported so far, in order.
    var reports: [LoopReport] { log.reports }

    /// The request lines reported for `id`, in order.
    func requests(from id: ID) -> [String] { Self.requests(from: id, in: reports) }

    /// The request lines of `id` in `reports`, in order.
    static func requests(from id: ID, in reports: [LoopReport]) -> [String] {
        reports.compactMap { if case .request(id, let line) = $0 { line } else { nil } }
    }

    /// Whether `report` was reported.
    func hasReported(_ report: LoopReport) -> Bool { reports.contains(report) }

    /// Waits until `condition` holds for the reports.
    /// - Throws: `TimedOut` naming `what` and listing the last reports.
    func waitFor(_ what: String, timeout: Duration = .seconds(10), _ condition: ([LoopReport]) -> Bool) throws {
        guard waitUntil(timeout, { condition(reports) }) else {
            throw TimedOut(description: "timed out waiting for \(what); last reports: \(reports.suffix(8))")
        }
    }

    /// Waits until `report` was reported.
    func waitFor(_ report: LoopReport, timeout: Duration = .seconds(10)) throws {
        try waitFor("\(report)", timeout: timeout) { $0.contains(report) }
    }

    /// Whether `run` has returned.
    var hasReturned: Bool { log.hasReturned.load(ordering: .acquiring) }

    // MARK: - Clients

    /// The first line of every client `connect()` makes, reported as `.opened`.
    static let hello = "hello from the harness"

    /// Connects a client, has it say `hello` and waits until the loop handed that on; answers it and reads the
    /// answer; returns the client with its connection ID.
    func connect() throws -> (client: LineClient, id: ID) {
        let opened = reports.count(where: { if case .opened = $0 { true } else { false } })
        let client = try LineClient(socket: socketPath)
        try client.send(Self.hello)
        var id: ID?
        try waitFor("the client to be reported open") { reports in
            let ids = reports.compactMap { if case .opened(let id) = $0 { id } else { nil } }
            id = ids.count > opened ? ids.last : nil
            return id != nil
        }
        loop.submit([.response(id!, line("welcome"))])
        let welcome = try client.nextLine(timeout: .seconds(10))
        guard String(decoding: welcome, as: UTF8.self) == "welcome" else {
            throw TimedOut(description: "the new client read \(String(decoding: welcome, as: UTF8.self))")
        }
        return (client, id!)
    }

    // MARK: - Commands, as the core gives them

    /// Queues bytes the client asked for (an answer, a snapshot on subscribing).
    func send(_ id: ID, _ bytes: [UInt8]) { loop.submit([.snapshot(id, bytes)]) }

    /// Answers one request of `id`, as the core does: the response, then `requestDone`, in one hand-over.
    func answer(_ id: ID, _ bytes: [UInt8]) { loop.submit([.response(id, bytes)]) }

    /// Answers several requests of `id` in one hand-over.
    func answer(_ id: ID, _ answers: [[UInt8]]) {
        loop.submit(answers.map { .response(id, $0) })
    }

    /// Queues one event for `ids`, subject to each one's event cap.
    func broadcast(_ bytes: [UInt8], to ids: [ID]) { loop.submit([.event(bytes, to: ids)]) }

    /// Queues the `resync` line for a client the loop reported overflowed.
    func resync(_ id: ID, _ line: [UInt8]) { loop.submit([.slowClientResync(id, line)]) }

    /// Queues the snapshot that ends a client's resync.
    func snapshot(_ id: ID, _ bytes: [UInt8]) { loop.submit([.slowClientSnapshot(id, bytes)]) }

    /// Waits until the loop has applied every command submitted before, and finished the pass that applied them
    /// (its hand-overs to the core are reported by then): a marker queued for the harness's own client after
    /// them is written in that pass's last step.
    func settle() throws {
        guard let probe else { return }
        probeRound += 1
        let marker = "settled \(probeRound)"
        loop.submit([.snapshot(probe.id, line(marker))])
        let line = try probe.client.nextLine(timeout: .seconds(10))
        guard String(decoding: line, as: UTF8.self) == marker else {
            throw TimedOut(description: "the probe read \(String(decoding: line, as: UTF8.self)), not \(marker)")
        }
    }

    /// Stops the loop (flushing for up to `grace`) and waits until `run` has returned.
    func stop(grace: Duration) throws {
        guard let thread else { return }
        loop.stop(grace: grace)
        try waitUntil("the loop to return", timeout: grace + .seconds(10)) { hasReturned }
        thread.join()
        self.thread = nil
    }
}

/// What the loop's thread records and the test reads.
private final class ReportLog: Sendable {
    private let entries = Mutex<[LoopReport]>([])
    let hasReturned = Atomic<Bool>(false)

    func append(_ report: LoopReport) { entries.withLock { $0.append(report) } }
    var reports: [LoopReport] { entries.withLock { $0 } }
}
