import HotStringsTestSupport
import LinuxSystem
import Testing

@Suite struct SystemdNotifyTests {
    @Test func theStateArrivesAsOneDatagramAtAPath() throws {
        try withTemporaryDirectory { directory throws in
            let path = "\(directory)/notify.sock"
            let receiver = try UnixSocket.bindDatagram(atPath: path)
            defer { SocketIO.close(receiver) }
            #expect(SystemdNotify.notify("READY=1", socketPath: path))
            #expect(SystemdNotify.notify("STATUS=serving 3 tables\nWATCHDOG=1", socketPath: path))
            #expect(try receive(from: receiver).1 == Array("READY=1".utf8))
            #expect(try receive(from: receiver).1 == Array("STATUS=serving 3 tables\nWATCHDOG=1".utf8))
            #expect(try receive(from: receiver).0 == .wouldBlock)
        }
    }

    @Test func anAtSignNamesAnAbstractSocket() throws {
        let name = "@hotstrings-tests-\(ProcessStatistics.processID)-\(UInt64.random(in: 0...UInt64.max))"
        let receiver = try UnixSocket.bindDatagram(atPath: name)
        defer { SocketIO.close(receiver) }
        #expect(SystemdNotify.notify("READY=1", socketPath: name))
        #expect(try receive(from: receiver).1 == Array("READY=1".utf8))
    }

    @Test func noOneListeningIsFalseNotAnError() throws {
        try withTemporaryDirectory { directory throws in
            #expect(!SystemdNotify.notify("READY=1", socketPath: "\(directory)/nobody.sock"))
            #expect(!SystemdNotify.notify("READY=1", socketPath: ""))
            #expect(!SystemdNotify.notify("READY=1", socketPath: "@"))
        }
    }

    @Test func withoutNotifySocketNothingIsSent() {
        // The test runner is not a notify service; if it were, the variable would be set and this is moot.
        if Environment.value("NOTIFY_SOCKET") == nil {
            #expect(!SystemdNotify.notify("READY=1"))
        } else {
            #expect(Environment.value("NOTIFY_SOCKET") != nil)
        }
    }
}

@Suite struct SocketActivationTests {
    @Test(arguments: [
        (["LISTEN_PID": "4242", "LISTEN_FDS": "1"], [3]),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "3"], [3, 4, 5]),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "1", "LISTEN_FDNAMES": "hotstrings.socket"], [3]),
        (["LISTEN_PID": "4243", "LISTEN_FDS": "1"], []),
        (["LISTEN_FDS": "1"], []),
        (["LISTEN_PID": "4242"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "0"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "-1"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "+1"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": " 1"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "1x"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": ""], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "99999999999999999999999"], []),
        (["LISTEN_PID": "4242", "LISTEN_FDS": "2147483645"], []),
        (["LISTEN_PID": "04242", "LISTEN_FDS": "1"], [3]),
        ([:], []),
    ] as [([String: String], [Int32])])
    func theEnvironmentNamesDescriptorsFromThree(environment: [String: String], descriptors: [Int32]) {
        #expect(SocketActivation.listenerDescriptors(environment: environment, pid: 4242) == descriptors)
    }

    @Test func aProcessThatWasNotActivatedHasNoListeners() {
        // LISTEN_PID could only name this process if systemd started the test runner as a socket service.
        if Environment.value("LISTEN_PID") == nil {
            #expect(SocketActivation.listenerDescriptors().isEmpty)
        } else {
            #expect(Environment.value("LISTEN_PID") != nil)
        }
    }
}
