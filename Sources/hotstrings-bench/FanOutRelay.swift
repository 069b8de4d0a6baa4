import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem

/// The fan-out reference: a child process that accepts N Unix socket connections and, when told, writes one
/// line to each with the daemon's system calls (`accept4`, then `send` with `MSG_DONTWAIT | MSG_NOSIGNAL` per
/// socket). No protocol, store or per-client bookkeeping. The benchmark reads the N other ends exactly as it
/// reads the daemon's subscribers, so the two figures differ only in what sits between the calls.
enum FanOutRelay {
    /// The median over `rounds` of the time from the request to write until the last (and the first) of
    /// `count` connections has read the line.
    static func measure(subscribers count: Int, lineBytes: Int, rounds: Int) throws -> FanOut.Timing {
        let folder = try FileSystem.makeTemporaryDirectory(prefix: "hs-relay-")
        defer { try? FileSystem.removeRecursively(atPath: folder) }
        let path = folder + "/relay.sock"
        let child = try ChildProcess(.init(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .path, [FanOutRelayProcess.name, "--socket", path]))
        defer {
            try? child.send(.terminate)
            _ = child.waitForExit()
        }
        let output = PipeReader(child.standardOutput!)
        guard (try? output.wait(untilContains: "ready", timeout: .seconds(30))) != nil else {
            throw UsageError("the relay process did not start")
        }
        let control = try LineConnection(path: path)
        var descriptors: [Int32] = []
        defer { for fd in descriptors { SocketIO.close(fd) } }
        for _ in 0..<count { descriptors.append(try UnixSocket.connect(toPath: path)) }
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            try control.send("count")
            if Int(String(decoding: try control.readLine(), as: UTF8.self)) == count { break }
            guard ContinuousClock.now < deadline else { throw UsageError("the relay did not accept every client") }
        }
        let poller = try EventPoller()
        defer { poller.close() }
        var lasts: [Double] = []
        var firsts: [Double] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for _ in 0..<rounds {
            for fd in descriptors { try poller.add(fd, interest: .readable) }
            var remaining = count
            var first: Double?
            let start = ContinuousClock.now
            try control.send("send \(lineBytes)")
            while remaining > 0 {
                let ready = try poller.wait(timeout: .seconds(10))
                guard !ready.isEmpty else { throw UsageError("\(remaining) relay clients never got the line") }
                for event in ready {
                    _ = SocketIO.receive(event.fd, into: &buffer)
                    poller.remove(event.fd)
                    remaining -= 1
                    if first == nil { first = (ContinuousClock.now - start).seconds }
                }
            }
            let last = (ContinuousClock.now - start).seconds
            lasts.append(last)
            firsts.append(first ?? last)
        }
        return FanOut.Timing(firstSeconds: Measure.median(firsts), lastSeconds: Measure.median(lasts),
                             maximumLastSeconds: lasts.max() ?? 0)
    }
}

/// The relay process (hidden suite): the first connection is the control one; on its line `send N` the
/// relay writes an N-byte line to every other connection, on `count` it answers how many it has accepted.
struct FanOutRelayProcess: BenchmarkSuite {
    static let name = "fan-out-relay"
    static let abstract = "(internal) the bare fan-out relay, run as a child of `serve`"
    static let help = "USAGE: hotstrings-bench fan-out-relay --socket PATH"

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        guard let path = try options.value("--socket") else { throw UsageError("--socket PATH is required") }
        try options.finish()
        Signals.ignore(.pipe)
        ResourceLimits.raiseOpenFiles()
        let listener = try UnixSocket.listen(atPath: path)
        let poller = try EventPoller()
        try poller.add(listener, interest: .readable)
        FileHandle.standardOutput.write(Data("ready\n".utf8))
        var control: Int32 = -1
        var clients: [Int32] = []
        var framed: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            for event in try poller.wait(timeout: nil) {
                if event.fd == listener {
                    while let fd = try UnixSocket.accept(listener) {
                        if control < 0 {
                            control = fd
                            try poller.add(fd, interest: .readable)
                        } else {
                            clients.append(fd)
                        }
                    }
                    continue
                }
                guard case .bytes(let count) = SocketIO.receive(control, into: &buffer) else { return 0 }
                framed += buffer[..<count]
                while let newline = framed.firstIndex(of: 0x0A) {
                    let command = String(decoding: framed[..<newline], as: UTF8.self)
                    framed.removeSubrange(...newline)
                    if command == "count" {
                        _ = Array("\(clients.count)\n".utf8).withUnsafeBytes { SocketIO.transmit(control, $0) }
                    } else if command.hasPrefix("send "), let size = Int(command.dropFirst(5)), size > 0 {
                        let line = [UInt8](repeating: 0x78, count: size - 1) + [0x0A]
                        line.withUnsafeBytes { bytes in
                            for fd in clients { _ = SocketIO.transmit(fd, bytes) }
                        }
                    }
                }
            }
        }
    }
}
