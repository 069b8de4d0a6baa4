import LinuxSystem
import Testing

@Suite struct ErrnoTests {
    @Test(arguments: [
        (Errno.permissionDenied, "Permission denied (EACCES)"),
        (Errno.noSuchFileOrDirectory, "No such file or directory (ENOENT)"),
        (Errno.wouldBlock, "Resource temporarily unavailable (EAGAIN)"),
        (Errno.interrupted, "Interrupted system call (EINTR)"),
        (Errno.noSpace, "No space left on device (ENOSPC)"),
        (Errno.fileTooLarge, "File too large (EFBIG)"),
        (Errno.loop, "Too many levels of symbolic links (ELOOP)"),
        (Errno.addressInUse, "Address already in use (EADDRINUSE)"),
        (Errno(rawValue: 9999), "Unknown error 9999 (errno 9999)"),
    ])
    func describesItselfWithTheTextAndTheName(errno: Errno, expected: String) {
        #expect(errno.description == expected)
    }

    @Test func systemErrorsNameTheCallAndThePath() {
        let withPath = SystemError(operation: "open", path: "/x/y.strings", errno: .permissionDenied)
        #expect(withPath.description == "open(/x/y.strings): Permission denied (EACCES)")
        let withoutPath = SystemError(operation: "inotify_init1", errno: .tooManyOpenFiles)
        #expect(withoutPath.description == "inotify_init1: Too many open files (EMFILE)")
    }
}

@Suite struct ProcessTests {
    @Test func cpuTimeGrowsWithWork() {
        let start = ProcessStatistics.cpuTime()
        var accumulator: UInt64 = 1
        var grew = false
        // Bounded by iterations: far more work than one tick of CPU accounting needs.
        for round in 0..<10_000 where !grew {
            for index in 0..<100_000 {
                accumulator = accumulator &* 6_364_136_223_846_793_005 &+ UInt64(index ^ round)
            }
            grew = ProcessStatistics.cpuTime() > start
        }
        #expect(grew)
        #expect(accumulator != 0)
    }

    @Test func reportsPeakMemoryAndIdentity() {
        #expect(ProcessStatistics.peakResidentBytes() > 1 << 20)
        #expect(ProcessStatistics.processID > 1)
        #expect(Environment.value("PATH")?.isEmpty == false)
        #expect(Environment.value("HOTSTRINGS_SURELY_UNSET_VARIABLE") == nil)
    }

    @Test func readsTheResidentSetOfThisProcessAndNoneOfAProcessThatIsNot() throws {
        let memory = try #require(ProcessStatistics.residentMemory())
        #expect(memory.current > 1 << 20 && memory.highWaterMark >= memory.current)
        #expect(ProcessStatistics.residentHighWaterMark(ofProcess: ProcessStatistics.processID) ?? 0 >= memory.current)
        // Beyond the kernel's largest pid (2^22): never a process.
        #expect(ProcessStatistics.residentMemory(ofProcess: 1 << 23) == nil)
    }

    @Test func signalsAnIgnoredSignalToItselfAndFailsForAMissingProcess() throws {
        Signals.ignore(.user2)
        // If ignoring did not work, the default action of SIGUSR2 would end the test process here.
        try Signals.send(.user2, toProcess: ProcessStatistics.processID)
        let error = #expect(throws: SystemError.self) { try Signals.send(.user2, toProcess: Int32.max) }
        #expect(error?.errno == .noSuchProcess)
    }
}
