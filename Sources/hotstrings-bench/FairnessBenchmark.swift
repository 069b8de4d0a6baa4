import Foundation
import HotStringsClient
import LinuxSystem
import Synchronization

/// The fairness figure: a `get` round trip while two other clients flood the daemon with pipelined requests for
/// a large table, next to the same `get` on the idle daemon, in the same run.
enum FairnessBenchmark {
    static let samples = 500
    /// Clients pipelining `table` requests while the `get`s are timed.
    static let floods = 2

    /// Prints both medians and p99s and returns whether the flooded median is within 2x + 1 ms of the idle one.
    static func run(daemon: Daemon) throws -> Bool {
        let idle = try roundTrips(daemon)
        let flooders = try (0..<floods).map { _ in try Flood(socket: daemon.socket) }
        defer { for flood in flooders { flood.stop() } }
        for flood in flooders { flood.waitUntilFlowing() }
        let flooded = try roundTrips(daemon)
        let answered = flooders.map(\.answerBytes).reduce(0, +)
        let (idleMedian, floodedMedian) = (Measure.median(idle), Measure.median(flooded))
        print(String(format: "get round trip while %d other clients pipeline `table` requests for %@ (%d keys, "
                     + "%@ read meanwhile), %d gets (ms):", floods, Daemon.largeTable, Daemon.largeTableKeys,
                     Format.megabytes(answered), samples))
        print(String(format: "  idle p50 %.3f p99 %.3f; flooded p50 %.3f p99 %.3f", idleMedian * 1e3,
                     WatchSuite.percentile(idle, 0.99) * 1e3, floodedMedian * 1e3,
                     WatchSuite.percentile(flooded, 0.99) * 1e3))
        let bound = 2 * idleMedian + 0.001
        let passes = floodedMedian <= bound
        print(String(format: "  flooded p50 / (2x idle p50 + 1 ms) = %.2f; bar flooded p50 <= 2x idle + 1 ms: %@",
                     floodedMedian / bound, passes ? "PASS" : "FAIL"))
        return passes
    }

    private static func roundTrips(_ daemon: Daemon) throws -> [Double] {
        let connection = try LineConnection(path: daemon.socket)
        var seconds: [Double] = []
        for index in 0..<samples {
            let start = ContinuousClock.now
            try connection.send(#"{"id":\#(index),"op":"get","key":"key.7","language":"de"}"#)
            _ = try connection.readLine()
            seconds.append((ContinuousClock.now - start).seconds)
        }
        return seconds
    }

    /// A client writing pipelined `table` requests on one thread and reading the answers on another.
    final class Flood: Sendable {
        let fd: Int32
        private let sent = Atomic<Int>(0)
        private let received = Atomic<Int>(0)
        private let isStopped = Atomic<Bool>(false)
        private let finished = DispatchSemaphore(value: 0)

        init(socket path: String) throws {
            fd = try UnixSocket.connect(toPath: path)
            let request = Array(#"{"id":1,"op":"table","table":"\#(Daemon.largeTable)","language":"de"}"#.utf8) + [0x0A]
            let batch = Array([[UInt8]](repeating: request, count: 100).joined())
            Thread.detachNewThread { [self] in
                while !isStopped.load(ordering: .relaxed) {
                    guard let count = try? Descriptor.write(batch, to: fd), count > 0 else { break }
                    sent.add(count, ordering: .relaxed)
                }
                finished.signal()
            }
            Thread.detachNewThread { [self] in
                while let bytes = try? Descriptor.read(from: fd, maximumCount: 1 << 16), !bytes.isEmpty {
                    received.add(bytes.count, ordering: .relaxed)
                }
                finished.signal()
            }
        }

        /// The answer bytes read so far.
        var answerBytes: Int { received.load(ordering: .relaxed) }

        /// Waits (up to 10 s) until the daemon has taken a few hundred requests and answers flow back.
        func waitUntilFlowing() {
            let deadline = ContinuousClock.now + .seconds(10)
            while sent.load(ordering: .relaxed) < 64 << 10 || answerBytes < 1 << 20, ContinuousClock.now < deadline {
                Thread.sleep(forTimeInterval: 0.005)
            }
        }

        /// Stops both threads (shutting the socket down wakes a blocked read or write) and closes it.
        func stop() {
            isStopped.store(true, ordering: .relaxed)
            _ = shutdown(fd, Int32(SHUT_RDWR))
            finished.wait()
            finished.wait()
            SocketIO.close(fd)
        }
    }
}
