import HotStringsProtocol
import HotStringsTestSupport
import LinuxSystem
import Testing
@testable import HotStringsClient

/// `LineConnection` against a listener the test plays the daemon on: framing across reads, request IDs,
/// events kept while a response is awaited, deadlines, the daemon going away, interruption.
@Suite struct LineConnectionTests {
    /// A listening socket in a private folder and the server end of the one connection made to it.
    final class FakeDaemon {
        let folder: String
        var path: String { folder + "/d.sock" }
        let listener: Int32
        private var accepted: Int32 = -1

        init() throws {
            folder = try FileSystem.makeTemporaryDirectory(prefix: "hs-line-")
            listener = try UnixSocket.listen(atPath: folder + "/d.sock")
        }

        deinit {
            if accepted >= 0 { SocketIO.close(accepted) }
            SocketIO.close(listener)
            try? FileSystem.removeRecursively(atPath: folder)
        }

        /// The server end of the connection the client made.
        func connection() throws -> Int32 {
            if accepted < 0 { accepted = try #require(try UnixSocket.accept(listener)) }
            return accepted
        }

        /// Writes `text` to the client as it is, in one write.
        func write(_ text: String) throws {
            let fd = try connection()
            let count = try Array(text.utf8).withUnsafeBytes { try SocketIO.write(fd, $0) }
            #expect(count == text.utf8.count)
        }

        /// What the client sent so far (it was flushed before this is called).
        func received() throws -> String {
            let fd = try connection()
            var buffer = [UInt8](repeating: 0, count: 4096)
            guard case .data(let count) = try buffer.withUnsafeMutableBytes({ try SocketIO.read(fd, into: $0) })
            else { return "" }
            return String(decoding: buffer[..<count], as: UTF8.self)
        }

        /// Closes the server end: the client reads end of file.
        func hangUp() throws {
            SocketIO.close(try connection())
            accepted = -2
        }
    }

    @Test func aResponseSplitAcrossReadsIsMatchedAndEventsBeforeItAreKept() throws {
        let daemon = try FakeDaemon()
        let connection = try LineConnection(path: daemon.path)
        #expect(connection.server.userID == ProcessStatistics.userID)
        // Written before the request goes out: the connection must still wait for and match its own answer.
        try daemon.write(#"{"event":"language","epoch":1,"seq":1,"language":"fr"}"# + "\n" + #"{"id":1,"ok":tr"#)
        try daemon.write(#"ue,"languages":[],"developmentLanguage":"en"}"# + "\n")
        let answer = try connection.request(.languages, timeout: .seconds(5))
        #expect(answer == .success(AnswerFields([("languages", .array([])), ("developmentLanguage", .string("en"))])))
        #expect(try daemon.received() == #"{"id":1,"op":"languages"}"# + "\n")
        let event = #"{"event":"language","epoch":1,"seq":1,"language":"fr"}"#
        #expect(try connection.nextEvent() == .line(Array(event.utf8)))
    }

    @Test func requestsQueuedFromALoopGetIncreasingIDs() throws {
        let daemon = try FakeDaemon()
        let connection = try LineConnection(path: daemon.path)
        #expect(connection.queue(.hello(client: "t")) == 1)
        #expect(connection.queue(.languages) == 2)
        #expect(connection.hasUnsentBytes)
        try connection.flush()
        #expect(!connection.hasUnsentBytes)
        let sent = try daemon.received().split(separator: "\n")
        #expect(sent.count == 2 && sent[0].hasPrefix(#"{"id":1,"#) && sent[1].hasPrefix(#"{"id":2,"#), "\(sent)")
    }

    @Test func noAnswerWithinTheTimeoutIsTimedOutNamingThePath() throws {
        let daemon = try FakeDaemon()
        let connection = try LineConnection(path: daemon.path)
        #expect {
            _ = try connection.request(.languages, timeout: .milliseconds(50))
        } throws: { error in
            "\(error)" == "no answer from the daemon at \(daemon.path) within 50 ms"
        }
    }

    @Test func aDaemonThatHangsUpIsConnectionLostAndLinesBeforeItAreKept() throws {
        let daemon = try FakeDaemon()
        let connection = try LineConnection(path: daemon.path)
        try daemon.write("{\"event\":\"x\"}\n")
        try daemon.hangUp()
        #expect(try connection.nextLine(timeout: .seconds(5)) == .line(Array(#"{"event":"x"}"#.utf8)))
        #expect(try connection.nextLine(timeout: .seconds(5)) == .closed)
        #expect(connection.isClosedByPeer)
        #expect {
            _ = try connection.request(.languages, timeout: .seconds(5))
        } throws: { error in
            guard case ConnectionError.connectionLost(let path) = error else { return false }
            return path == daemon.path
        }
    }

    @Test func anInterruptEndsAWaitWithoutADeadline() throws {
        let daemon = try FakeDaemon()
        let connection = try LineConnection(path: daemon.path)
        connection.interrupter.interrupt()
        #expect(try connection.nextEvent() == .interrupted)
        #expect(connection.interrupter.isInterrupted)
    }

    @Test func aLineLongerThanTheLimitIsMalformed() throws {
        let daemon = try FakeDaemon()
        let connection = try LineConnection(path: daemon.path, maximumLineLength: 16)
        try daemon.write(String(repeating: "x", count: 40))
        #expect {
            _ = try connection.nextLine(timeout: .seconds(5))
        } throws: { error in
            guard case ConnectionError.malformed(_, let reason) = error else { return false }
            return reason.contains("16")
        }
    }

    @Test func noSocketIsCannotConnectWithErrno() throws {
        let daemon = try FakeDaemon()
        #expect {
            _ = try LineConnection(path: daemon.folder + "/missing.sock")
        } throws: { error in
            "\(error)" == "cannot connect to \(daemon.folder)/missing.sock: No such file or directory (ENOENT)"
        }
    }
}
