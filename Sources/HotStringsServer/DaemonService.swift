import BundleWatcher
import HotStringsProtocol
import HotStringsRelease
import HotStringsService
import StringsStore

/// The daemon's side of the protocol service: turns what the I/O thread reports into service inputs, and
/// the service's outputs into I/O commands, one hand-over per input.
///
/// Events reach the I/O thread as the service rendered them, one line per distinct audience, shared by
/// every connection it goes to.
final class DaemonService {
    private let service: ProtocolService<WireLines>
    private let io: IOLoop
    private let onFirstScan: @Sendable () -> Void

    /// An adapter that runs a service over `store` for the connections of `io`, saving selections in
    /// `selection` (nil: in memory only); `onFirstScan` runs once the first scan is served.
    init(store: StringsStore, watcher: BundleWatcher, io: IOLoop, selection: SelectionFile?, pullLoop: PullLoop?,
         onFirstScan: @escaping @Sendable () -> Void) {
        var environment = ProtocolService<WireLines>.Environment(
            root: watcher.root, watcherStatus: { watcher.status },
            connectionCount: { io.connectionCount.load(ordering: .relaxed) })
        if let selection {
            environment.saveSelection = { language in try selection.write(language) }
        }
        environment.onStoreEvent = Self.log
        if let pullLoop { environment.pullStatus = { pullLoop.status } }
        service = ProtocolService(store: store, environment: environment)
        self.io = io
        self.onFirstScan = onFirstScan
    }

    /// Handles inputs until the stream ends.
    func run(_ inputs: AsyncStream<CoreInput>) async {
        for await input in inputs {
            guard let serviceInput = Self.serviceInput(input) else { continue }
            let outputs = await service.handle(serviceInput)
            io.submit(commands(for: outputs))
        }
    }

    private static func log(_ event: StoreEvent) {
        switch event {
        case .reload: break
        case .error(_, let problem): Log.warning("\(problem)")
        case .language(_, let language, let previous):
            Log.info("language: \(language ?? "none") (was \(previous ?? "none"))")
        case .resync(_, let reason): Log.info("resync: \(reason.rawValue)")
        }
    }

    private static func serviceInput(_ input: CoreInput) -> ServiceInput? {
        switch input {
        case .opened: nil
        case .request(let id, let line): .requestLine(id, line)
        case .closed(let id): .closed(id)
        case .overflowed(let id): .overflowed(id)
        case .caughtUp(let id): .caughtUp(id)
        case .batch(let batch): .batch(batch)
        case .problems(let problems): .problems(problems)
        }
    }

    private func commands(for outputs: [ServiceOutput<[UInt8]>]) -> [IOCommand] {
        var commands: [IOCommand] = []
        commands.reserveCapacity(outputs.count + 1)
        for output in outputs {
            switch output {
            case .firstScanServed:
                onFirstScan()
            case .response(let id, let requestID, .success(let fields)):
                commands.append(.send(id, ResponseEncoder.success(id: requestID, fields: fields)))
                commands.append(.requestDone(id))
            case .response(let id, let requestID, .failure(let error)):
                if error.code == .internal { Log.warning("answered an error: \(error.message)") }
                commands.append(.send(id, ResponseEncoder.failure(id: requestID, error)))
                commands.append(.requestDone(id))
            case .event(let line, let ids):
                commands.append(.broadcast(line, ids))
            case .snapshot(let id, let line):
                commands.append(.send(id, line))
            case .slowClientResync(let id, let line):
                commands.append(.resync(id, line))
            case .slowClientSnapshot(let id, let line):
                commands.append(.snapshot(id, line))
            }
        }
        return commands
    }
}
