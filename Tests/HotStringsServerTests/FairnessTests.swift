import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Synchronization
import Testing

/// A client that writes `payload` again and again on its own thread (and, if `drains`, reads and drops
/// whatever the daemon answers on another) until stopped.
final class Flood: Sendable {
    let fd: Int32
    let sentBytes = Atomic<Int>(0)
    private let isStopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let threads: Int

    init(socket path: String, payload: [UInt8], drains: Bool) throws {
        fd = try UnixSocket.connect(toPath: path)
        threads = drains ? 2 : 1
        Thread.detachNewThread { [self] in
            while !isStopped.load(ordering: .relaxed) {
                guard let count = try? Descriptor.write(payload, to: fd), count > 0 else { break }
                sentBytes.add(count, ordering: .relaxed)
            }
            finished.signal()
        }
        if drains {
            Thread.detachNewThread { [self] in
                while let bytes = try? Descriptor.read(from: fd, maximumCount: 1 << 16), !bytes.isEmpty {}
                finished.signal()
            }
        }
    }

    /// Waits until at least `bytes` were written.
    func waitUntilFlowing(bytes: Int = 1 << 20) throws {
        try waitUntil("the flood to flow", timeout: .seconds(20)) { sentBytes.load(ordering: .relaxed) >= bytes }
    }

    /// Stops both threads (shutting the socket down wakes a blocked read or write) and closes the socket.
    func stop() {
        isStopped.store(true, ordering: .relaxed)
        _ = shutdown(fd, Int32(SHUT_RDWR))
        for _ in 0..<threads { finished.wait() }
        SocketIO.close(fd)
    }
}

/// The daemon's resident memory in bytes, from `VmRSS` in /proc/<pid>/status.
func residentBytes(of pid: Int32) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
    let kilobytes = try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    return kilobytes * 1024
}

/// Issue 9, findings 6 and 7: one client never hurts another — fair turns, and a cap on unread answers.
@Suite(.needsHotstringsBinary)
struct FairnessTests {
    let get = #"{"id":"probe","op":"get","key":"greeting","language":"de"}"#

    /// A flood of empty lines used to hold the loop on that one client: a `get` waited for the flood to end.
    @Test func aClientStreamingEmptyLinesDoesNotStarveAnotherClientsGet() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let flood = try Flood(socket: sandbox.socket, payload: [UInt8](repeating: 0x0A, count: 64 << 10),
                              drains: false)
        defer { flood.stop() }
        try flood.waitUntilFlowing()
        for _ in 0..<3 {
            let other = try LineClient(socket: sandbox.socket)
            #expect(try other.request(get, timeout: .seconds(5))["found"] == true)
        }
        #expect(daemon.isRunning)
    }

    /// Six clients pipelining heavy `table` requests (about 1 MB answers, read as they come) share the daemon
    /// fairly with a seventh that asks one `get`: it waits for the few requests in the core's bounded backlog.
    /// Before, each client had up to 64 requests in the core at once, and the `get` waited behind all 384
    /// answers (well over the 5 seconds allowed here, in a debug build).
    @Test func clientsPipeliningHeavyRequestsDoNotStarveAnotherClientsGet() throws {
        let heavy = (0..<10_000).map { #""key.\#($0)" = "\#(String(repeating: "h", count: 90))";"# }
        let sandbox = try Sandbox(extraFiles: ["en.lproj/Big.strings": heavy.joined(separator: "\n")])
        let daemon = try DaemonProcess.serving(sandbox)
        let request = Array(#"{"id":1,"op":"table","language":"en","table":"Big"}"#.utf8) + [0x0A]
        let payload = Array([[UInt8]](repeating: request, count: 200).joined())
        let floods = try (0..<6).map { _ in try Flood(socket: sandbox.socket, payload: payload, drains: true) }
        defer { for flood in floods { flood.stop() } }
        for flood in floods { try flood.waitUntilFlowing(bytes: 32 << 10) }
        for _ in 0..<3 {
            let other = try LineClient(socket: sandbox.socket)
            #expect(try other.request(get, timeout: .seconds(5))["found"] == true)
        }
        #expect(daemon.isRunning)
    }

    /// Four clients pipelining `table` requests for a 1.3 MB table and never reading: the daemon stops
    /// reading each once its unread answers pass the soft cap and closes it past the hard cap (16 MiB), so
    /// its memory stays bounded (it grew by about 330 MB before: 64 answers in flight per client).
    @Test func clientsThatPipelineTablesAndNeverReadDoNotGrowTheDaemonWithoutBound() throws {
        let huge = (0..<10_000).map { #""key.\#($0)" = "\#(String(repeating: "w", count: 120))";"# }
        let sandbox = try Sandbox(extraFiles: ["en.lproj/Huge.strings": huge.joined(separator: "\n")])
        let daemon = try DaemonProcess.serving(sandbox)
        let request = #"{"id":1,"op":"table","language":"en","table":"Huge"}"#
        let probe = try LineClient(socket: sandbox.socket)
        _ = try probe.request(request, timeout: .seconds(20))
        let baseline = try residentBytes(of: daemon.pid)

        let hogs = try (0..<4).map { _ in try LineClient(socket: sandbox.socket) }
        let batch = Array(String(repeating: request + "\n", count: 80).utf8)
        for hog in hogs { try hog.send(bytes: batch, timeout: .seconds(20)) }
        var peak = baseline
        // Each status answer comes after the tables queued before it (one core, in order): sample meanwhile.
        for id in 0..<15 {
            _ = try probe.request(#"{"id":\#(id),"op":"status"}"#, timeout: .seconds(30))
            peak = max(peak, try residentBytes(of: daemon.pid))
        }
        let growth = peak - baseline
        #expect(growth < 160 << 20, "the daemon grew by \(growth >> 20) MB")
        #expect(try probe.request(get)["found"] == true)
        #expect(daemon.isRunning)
    }
}
