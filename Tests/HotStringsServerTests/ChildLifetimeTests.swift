import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

/// No child of a test outlives it (issue 20, "The suite"): runs that crashed or were killed left `hotstrings serve`
/// processes behind, adopted by pid 1. `hotstrings-test-parent` starts a daemon the way every test does and is
/// then killed with SIGKILL, which no clean-up code can catch; the daemon must go with it.
@Suite(.needsHotstringsBinary)
struct ChildLifetimeTests {
    @Test func aDaemonDiesWithItsParentWhenTheParentIsKilled() throws {
        guard let parentExecutable = builtExecutable(named: "hotstrings-test-parent") else {
            try Test.cancel("hotstrings-test-parent was not built")
        }
        let sandbox = try Sandbox()
        let parent = try ChildProcess(.init(parentExecutable.path,
                                            [sandbox.bundle, sandbox.socket, sandbox.stateDirectory]))
        let output = PipeReader(parent.standardOutput!)
        let errors = PipeReader(parent.standardError!)
        defer { try? parent.send(.kill) }
        try output.wait(for: "the daemon's pid", timeout: .seconds(60)) { $0.hasSuffix("\n") }
        let pid = try #require(output.text.split(separator: " ").last.flatMap { Int32($0.dropLast()) },
                               "output: \(output.text) errors: \(errors.text)")
        let daemon = try #require(ProcessState(pid: pid), "the daemon \(pid) is not running")
        #expect(daemon.parent == parent.pid && daemon.state != "Z")
        #expect(UnixSocket.isListening(atPath: sandbox.socket))

        try parent.send(.kill)
        #expect(parent.waitForExit(timeout: .seconds(20)) == .signalled(SIGKILL))
        // Gone: no process with that pid and start time runs any more. Adopted by a parent that does not reap
        // (a container's pid 1 may not), it stays a zombie: ended, nothing left to run. The state is the main
        // thread's, which can be a zombie while the other threads still exit, so its last thread must be gone too.
        let ended = waitUntil(.seconds(20)) {
            guard let now = ProcessState(pid: pid), now.startTime == daemon.startTime else { return true }
            let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task").count) ?? 0
            return (now.state == "Z" || now.state == "X") && threads <= 1
                && !UnixSocket.isListening(atPath: sandbox.socket)
        }
        #expect(ended, "the daemon \(pid) outlived its parent: \(ProcessState(pid: pid).map { "\($0)" } ?? "")")
        #expect(!UnixSocket.isListening(atPath: sandbox.socket), "nothing serves on the daemon's socket any more")
    }
}

/// A process's state letter, parent and start time, from /proc/<pid>/stat; nil when there is no such process.
struct ProcessState: CustomStringConvertible {
    var state: String
    var parent: Int32
    var startTime: Int

    init?(pid: Int32) {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        // The command name (field 2) may hold spaces; fields are counted after its closing parenthesis.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 19, let parent = Int32(fields[1]), let startTime = Int(fields[19]) else { return nil }
        state = String(fields[0])
        self.parent = parent
        self.startTime = startTime
    }

    var description: String { "state \(state), parent \(parent)" }
}
