import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem

/// The fan-out reference: a child process that accepts N Unix socket connections, watches a table's folder with a
/// bare inotify watch (`IN_MOVED_TO`, as the serve latency's floor) and, when the table is saved, writes one line to
/// each connection with the daemon's system calls (`accept4` and `epoll_ctl` to hear the client, as a server that
/// reads its clients does, then `send` with `MSG_DONTWAIT | MSG_NOSIGNAL` per socket). No protocol, parsing, store
/// or per-client bookkeeping. The benchmark saves its table as it saves the
/// daemon's (the same text, written beside and renamed over) and reads the N other ends exactly as it reads the
/// daemon's subscribers, so the two figures differ only in what sits between the save and the calls.
final class FanOutRelay {
    /// The benchmark's ends of the relay's N connections.
    private(set) var connections: [Int32] = []
    private let folder: TemporaryBundle
    private let child: ChildProcess
    private let control: LineConnection

    /// Starts the relay process on a folder of its own (one the daemon does not watch) and connects `count` clients.
    init(connections count: Int) throws {
        folder = try TemporaryBundle(tables: [FanOut.table: Daemon.table(0)])
        let path = folder.root + "/relay.sock"
        let watched = folder.root + "/" + (FanOut.table as NSString).deletingLastPathComponent
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        do {
            child = try ChildProcess(.init(executable, [FanOutRelayProcess.name, "--socket", path, "--watch", watched]))
        } catch {
            folder.remove()
            throw error
        }
        let output = PipeReader(child.standardOutput!)
        do {
            guard (try? output.wait(untilContains: "ready", timeout: .seconds(30))) != nil else {
                throw UsageError("the relay process did not start")
            }
            control = try LineConnection(path: path)
        } catch {
            try? child.send(.terminate)
            _ = child.waitForExit()
            folder.remove()
            throw error
        }
        do {
            for _ in 0..<count { connections.append(try UnixSocket.connect(toPath: path)) }
            let deadline = ContinuousClock.now + .seconds(30)
            while true {
                try control.send("count")
                if Int(String(decoding: try control.readLine(), as: UTF8.self)) == count { break }
                guard ContinuousClock.now < deadline else { throw UsageError("the relay did not accept every client") }
            }
        } catch {
            stop()
            throw error
        }
    }

    /// The relay's process ID.
    var pid: Int32 { child.pid }

    /// Has the relay write a line of `lineBytes` bytes (the newline included) on the next saves.
    func prepare(lineBytes: Int) throws {
        try control.send("line \(lineBytes)")
        guard try control.readLine() == Array("ok".utf8) else { throw UsageError("the relay refused the line") }
    }

    /// Saves the relay's table as the daemon's is saved.
    func save(_ text: String) throws {
        try folder.atomicallyReplace(FanOut.table, with: text)
    }

    /// Ends the process and closes the connections.
    func stop() {
        for fd in connections { SocketIO.close(fd) }
        connections = []
        try? child.send(.terminate)
        _ = child.waitForExit()
        folder.remove()
    }
}

/// The relay process (hidden suite): the first connection is the control one; on its line `line N` the relay writes
/// an N-byte line to every other connection each time a file is renamed into the watched folder, on `count` it
/// answers how many it has accepted.
struct FanOutRelayProcess: BenchmarkSuite {
    static let name = "fan-out-relay"
    static let abstract = "(internal) the bare fan-out relay, run as a child of `serve`"
    static let help = "USAGE: hotstrings-bench fan-out-relay --socket PATH --watch FOLDER"

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        guard let path = try options.value("--socket") else { throw UsageError("--socket PATH is required") }
        guard let watched = try options.value("--watch") else { throw UsageError("--watch FOLDER is required") }
        try options.finish()
        Signals.ignore(.pipe)
        ResourceLimits.raiseOpenFiles()
        let inotify = try Inotify()
        _ = try inotify.addWatch(watched, mask: [.movedTo])
        let listener = try UnixSocket.listen(atPath: path)
        let poller = try EventPoller()
        try poller.add(listener, interest: .readable)
        try poller.add(inotify.fileDescriptor, interest: .readable)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var control: Int32 = -1
        var clients: [Int32] = []
        var framed: [UInt8] = []
        var line: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            for event in try poller.wait(timeout: nil) {
                if event.fd == inotify.fileDescriptor {
                    for _ in try inotify.readEvents() where !line.isEmpty {
                        line.withUnsafeBytes { bytes in
                            for fd in clients { _ = SocketIO.transmit(fd, bytes) }
                        }
                    }
                    continue
                }
                if event.fd == listener {
                    while let fd = try UnixSocket.accept(listener) {
                        try poller.add(fd, interest: .readable)
                        if control < 0 { control = fd } else { clients.append(fd) }
                    }
                    continue
                }
                guard event.fd == control else {
                    // A client says nothing; one that hangs up leaves the poller (the benchmark closes them at the end).
                    poller.remove(event.fd)
                    continue
                }
                guard case .bytes(let count) = SocketIO.receive(control, into: &buffer) else { return 0 }
                framed += buffer[..<count]
                while let newline = framed.firstIndex(of: 0x0A) {
                    let command = String(decoding: framed[..<newline], as: UTF8.self)
                    framed.removeSubrange(...newline)
                    var answer = "ok"
                    if command == "count" {
                        answer = "\(clients.count)"
                    } else if command.hasPrefix("line "), let size = Int(command.dropFirst(5)), size > 0 {
                        line = [UInt8](repeating: 0x78, count: size - 1) + [0x0A]
                    } else {
                        answer = "unknown"
                    }
                    _ = Array((answer + "\n").utf8).withUnsafeBytes { SocketIO.transmit(control, $0) }
                }
            }
        }
    }
}
