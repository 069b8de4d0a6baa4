import Foundation
import LinuxSystem
import Synchronization
import Testing

/// The child-process wrapper that replaces Foundation's `Process` in tests and the benchmark (issue 20).
@Suite struct ChildProcessTests {
    @Test(arguments: [(0, "exit 0"), (3, "exit 3"), (255, "exit 255")])
    func reportsTheExitCode(code: Int32, script: String) throws {
        let child = try ChildProcess(.init("/bin/sh", ["-c", script]))
        #expect(child.waitForExit(timeout: .seconds(20)) == .exited(code))
        #expect(!child.isRunning)
    }

    @Test func reportsTheSignalThatEndedTheChildAndSignalsNoOtherProcessOnceReaped() throws {
        let child = try ChildProcess(.init("/bin/sleep", ["60"]))
        #expect(child.isRunning)
        try child.send(.kill)
        #expect(child.waitForExit(timeout: .seconds(20)) == .signalled(SIGKILL))
        #expect(child.termination?.status == SIGKILL)
        #expect(throws: SystemError(operation: "pidfd_send_signal", errno: .noSuchProcess)) {
            try child.send(.terminate)
        }
    }

    @Test func writingToTheInputOfAChildThatExitedIsAnErrorNotSIGPIPE() throws {
        // Without SIGPIPE ignored, this write ends the whole test process (the suite once died of it).
        var configuration = ChildProcess.Configuration("/bin/true", [])
        configuration.standardInput = .pipe
        let child = try ChildProcess(configuration)
        #expect(child.waitForExit(timeout: .seconds(20)) == .exited(0))
        let input = try #require(child.standardInput)
        let error = #expect(throws: SystemError.self) { _ = try Descriptor.write(Array("unread\n".utf8), to: input) }
        #expect(error?.errno == .brokenPipe)
    }

    @Test func aChildDoesNotInheritBlockedSignals() throws {
        // The thread that forks blocks every signal, and a test process may block SIGTERM to wait for it: a mask
        // is inherited through fork and exec, so without the child's reset SIGTERM would stay pending forever.
        let child = try ChildProcess(.init("/bin/sleep", ["60"]))
        try child.send(.terminate)
        #expect(child.waitForExit(timeout: .seconds(20)) == .signalled(SIGTERM))
    }

    @Test func outputLargerThanAPipeBufferOnBothStreamsIsReadWhileTheChildRuns() throws {
        let script = "head -c 1048576 /dev/zero >&2; head -c 3000000 /dev/zero; echo end"
        let child = try ChildProcess(.init("/bin/sh", ["-c", script]))
        let output = DrainedPipe(child.standardOutput!)
        let errors = DrainedPipe(child.standardError!)
        #expect(child.waitForExit(timeout: .seconds(60)) == .exited(0))
        #expect(output.bytes().count == 3_000_004)
        #expect(errors.bytes().count == 1_048_576)
    }

    @Test func inputOutputEnvironmentAndDirectoryAreTheOnesGiven() throws {
        let directory = try FileSystem.resolvedPath(FileSystem.makeTemporaryDirectory(prefix: "child-process-"))
        defer { try? FileSystem.removeRecursively(atPath: directory) }
        let script = #"read line; printf '%s|%s|%s|%s' "$line" "$HS_VALUE" "${HOME-unset}" "$PWD"; echo err >&2"#
        var configuration = ChildProcess.Configuration("/bin/sh", ["-c", script])
        configuration.environment = ["HS_VALUE": "given value", "PATH": "/usr/bin:/bin"]
        configuration.directory = directory
        configuration.standardInput = .pipe
        configuration.standardError = .standardOutput
        let child = try ChildProcess(configuration)
        #expect(child.standardError == nil)
        let output = DrainedPipe(child.standardOutput!)
        _ = try Descriptor.write(Array("typed\n".utf8), to: child.standardInput!)
        Descriptor.close(child.standardInput!)
        #expect(child.waitForExit(timeout: .seconds(20)) == .exited(0))
        let text = String(decoding: output.bytes(), as: UTF8.self)
        #expect(text == "typed|given value|unset|\(directory)err\n")
    }

    @Test func outputToAFileIsAppended() throws {
        let directory = try FileSystem.makeTemporaryDirectory(prefix: "child-process-")
        defer { try? FileSystem.removeRecursively(atPath: directory) }
        let path = directory + "/log"
        for word in ["one", "two"] {
            var configuration = ChildProcess.Configuration("/bin/echo", [word])
            configuration.standardOutput = .file(path)
            let child = try ChildProcess(configuration)
            #expect(child.waitForExit(timeout: .seconds(20)) == .exited(0))
        }
        let text = String(decoding: try FileSystem.readFile(atPath: path, maximumSize: 1024), as: UTF8.self)
        #expect(text == "one\ntwo\n")
    }

    @Test func aWaitWithADeadlineReturnsNilWhileTheChildRuns() throws {
        let child = try ChildProcess(.init("/bin/sleep", ["60"]))
        #expect(child.waitForExit(timeout: .milliseconds(50)) == nil)
        #expect(child.isRunning)
        try child.send(.terminate)
        #expect(child.waitForExit(timeout: .seconds(20)) == .signalled(SIGTERM))
    }

    @Test func aProgramThatCannotRunIsAnErrorNamingThePath() throws {
        let missing = SystemError(operation: "execve", path: "/nonexistent/program", errno: .noSuchFileOrDirectory)
        #expect(throws: missing) {
            _ = try ChildProcess(.init("/nonexistent/program"))
        }
        var configuration = ChildProcess.Configuration("/bin/true")
        configuration.directory = "/nonexistent/folder"
        let noFolder = SystemError(operation: "chdir", path: "/nonexistent/folder", errno: .noSuchFileOrDirectory)
        #expect(throws: noFolder) {
            _ = try ChildProcess(configuration)
        }
    }

    @Test func runsAsAnotherUserWithItsGroupAndNoOtherGroups() throws {
        guard ProcessStatistics.userID == 0 else { try Test.cancel("needs root to change user") }
        var configuration = ChildProcess.Configuration("/bin/sh", ["-c", "id -u; id -g; id -G"])
        configuration.user = (65534, 65534)
        let child = try ChildProcess(configuration)
        let output = DrainedPipe(child.standardOutput!)
        #expect(child.waitForExit(timeout: .seconds(20)) == .exited(0))
        #expect(String(decoding: output.bytes(), as: UTF8.self) == "65534\n65534\n65534\n")
    }

    /// PR_SET_PDEATHSIG fires when the thread that forked ends: children are forked on one long-lived thread, so
    /// a child started from a thread that ends (a Dispatch or test worker) keeps running.
    @Test func aChildOutlivesTheThreadThatStartedIt() throws {
        let started = Mutex<ChildProcess?>(nil)
        let thread = try NamedThread.start(name: "short-lived") {
            let child = try? ChildProcess(.init("/bin/sleep", ["60"]))
            started.withLock { $0 = child }
        }
        thread.join()
        let child = try #require(started.withLock { $0 })
        // The signal would be delivered at once; a short wait shows it was not.
        #expect(child.waitForExit(timeout: .milliseconds(300)) == nil, "the child died with the thread")
        try child.send(.kill)
        #expect(child.waitForExit(timeout: .seconds(20)) == .signalled(SIGKILL))
    }

    @Test func aReleasedHandleKillsAndReapsItsChild() throws {
        var child: ChildProcess? = try ChildProcess(.init("/bin/sleep", ["60"]))
        let pid = try #require(child?.pid)
        child = nil
        #expect(!FileManager.default.fileExists(atPath: "/proc/\(pid)"), "no child and no zombie left")
    }
}

/// Everything a pipe delivers, read on a thread of its own until end of file.
final class DrainedPipe: Sendable {
    private let collected: Collected
    private let thread: NamedThread

    private final class Collected: Sendable {
        let bytes = Mutex<[UInt8]>([])
    }

    init(_ fd: Int32) {
        let collected = Collected()
        self.collected = collected
        thread = NamedThread.run(name: "drain") {
            while let bytes = try? Descriptor.read(from: fd, maximumCount: 1 << 16), !bytes.isEmpty {
                collected.bytes.withLock { $0 += bytes }
            }
            Descriptor.close(fd)
        }
    }

    /// The bytes, once the writer closed the pipe.
    func bytes() -> [UInt8] {
        thread.join()
        return collected.bytes.withLock { $0 }
    }
}
