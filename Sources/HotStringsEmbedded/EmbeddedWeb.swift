import HotStringsClient
import HotStringsFront
import HotStringsLog
import HotStringsProtocol
import HotStringsService
import LinuxSystem
import Synchronization

/// The translator's page in embedded mode (`EmbeddedOptions.webPort`): the daemon's I/O loop with no Unix socket,
/// only the page's listener, in front of the same service host as the embedded session.
///
/// The host renders for the session (`TransportEvents`); what it addresses to the page's connections is turned
/// into wire lines here, on the core's thread (`route`), so the page gets the same bytes as from a daemon. The
/// loop's connections take client IDs above the session's, so the two never mix.
final class EmbeddedWeb: Sendable {
    private let server: WebServer
    private let loop: IOLoop
    private let log: LogSink
    private let thread = Mutex<NamedThread?>(nil)
    private let hasEndedFlag = Atomic<Bool>(false)

    /// The page's address with its token.
    var url: String { server.url }

    /// Opens the page's listener (its token saved in `stateDirectory`, when there is one) and prepares the loop,
    /// whose requests go to `host`; both log to the host's sink.
    /// - Throws: `EmbeddedStartError` (`.other`) when the port cannot be bound.
    init(_ options: WebOptions, stateDirectory: String?, host: ServiceHost<TransportEvents>) throws(EmbeddedStartError) {
        log = host.options.log
        do throws(SystemError) {
            server = try WebServer.open(options, stateDirectory: stateDirectory, root: host.watcher.root, log: log)
        } catch {
            throw EmbeddedStartError(description: "cannot serve the page: \(error)")
        }
        do throws(SystemError) {
            loop = try IOLoop(listener: nil, limits: IOLoop.Limits(), web: server,
                              firstClientID: EmbeddedSession.client + 1, log: log, admits: { _ in false },
                              toCore: { host.submit($0) })
        } catch {
            SocketIO.close(server.listener)
            throw EmbeddedStartError(description: "cannot set up the page's event loop: \(error)")
        }
    }

    /// Starts the loop's thread and logs the page's address.
    func start() {
        log.info("web: \(server.url)")
        let running = NamedThread.run(name: "hotstrings-io") { [self] in
            loop.run()
            hasEndedFlag.store(true, ordering: .releasing)
        }
        thread.withLock { $0 = running }
    }

    /// Splits one input's outputs: those for the session are returned, in order; those for the page's
    /// connections are rendered as wire lines and handed to the loop.
    func route(_ outputs: [ServiceOutput<TransportEvents>]) -> [ServiceOutput<TransportEvents>] {
        var forSession: [ServiceOutput<TransportEvents>] = []
        var forPage: [ServiceOutput<WireLines>] = []
        let session = EmbeddedSession.client
        for output in outputs {
            switch output {
            case .firstScanServed:
                forSession.append(output)
                forPage.append(.firstScanServed)
            case .response(let client, let answer):
                if client == session { forSession.append(output) } else {
                    forPage.append(.response(client, WireLines.render(answer, log: log)))
                }
            case .event(let event, let clients):
                if clients.contains(session) { forSession.append(.event(event, to: [session])) }
                let pageClients = clients.filter { $0 != session }
                if !pageClients.isEmpty { forPage.append(.event(Self.line(event), to: pageClients)) }
            case .snapshot(let client, let event):
                if client == session { forSession.append(output) } else {
                    forPage.append(.snapshot(client, Self.line(event)))
                }
            case .slowClientResync(let client, let event):
                if client == session { forSession.append(output) } else {
                    forPage.append(.slowClientResync(client, Self.line(event)))
                }
            case .slowClientSnapshot(let client, let event):
                if client == session { forSession.append(output) } else {
                    forPage.append(.slowClientSnapshot(client, Self.line(event)))
                }
            case .offCore(let client):
                if client == session { forSession.append(output) } else { forPage.append(.offCore(client)) }
            }
        }
        loop.submit(forPage)
        return forSession
    }

    /// Closes the page's connections, ends the loop's thread and closes the listener. Not from the loop's thread.
    func stop() {
        loop.stop(grace: .zero)
        thread.withLock { $0.take() }?.join()
        SocketIO.close(server.listener)
    }

    /// Whether the loop's thread has ended.
    var hasEnded: Bool { hasEndedFlag.load(ordering: .acquiring) }

    /// An event as the session got it, as the line a daemon would send.
    private static func line(_ event: TransportEvent) -> [UInt8] {
        guard case .event(let epoch, let seq, let serverEvent) = event else {
            preconditionFailure("the service renders only positioned events")
        }
        return WireLines.render(serverEvent, epoch: epoch, seq: seq)
    }
}
