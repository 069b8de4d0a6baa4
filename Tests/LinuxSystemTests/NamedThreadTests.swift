import Dispatch
import Foundation
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// Actor state that records the thread each call runs on, to see where a default actor's jobs go.
private actor Counter {
    var value = 0

    func increment() -> String {
        value += 1
        return currentThreadName()
    }
}

/// The calling thread's name, as the kernel reports it.
private func currentThreadName() -> String {
    let text = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
    return text.trimmingCharacters(in: .newlines)
}

/// The names of this process's threads, from `/proc/self/task/*/comm`.
private func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { task in
        try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8).trimmingCharacters(in: .newlines)
    }
}

struct NamedThreadTests {
    @Test func aThreadIsNamedInProcWhileItRunsAndJoinWaitsForItsEnd() throws {
        let release = DispatchSemaphore(value: 0)
        let seenByItself = Mutex("")
        let hasReturned = Atomic<Bool>(false)
        let thread = try NamedThread.start(name: "hs-test-name") {
            seenByItself.withLock { $0 = currentThreadName() }
            release.wait()
            hasReturned.store(true, ordering: .releasing)
        }
        #expect(thread.name == "hs-test-name")
        #expect(waitUntil { threadNames().contains("hs-test-name") }, "threads: \(threadNames())")
        let returnedEarly = hasReturned.load(ordering: .acquiring)
        #expect(!returnedEarly)
        release.signal()
        thread.join()
        let returnedAfterJoin = hasReturned.load(ordering: .acquiring)
        #expect(returnedAfterJoin)
        #expect(seenByItself.withLock { $0 } == "hs-test-name")
        #expect(!threadNames().contains("hs-test-name"))
    }

    @Test func aLongNameIsCutToTheFifteenBytesLinuxKeeps() throws {
        let seen = Mutex("")
        let thread = try NamedThread.start(name: "hotstrings-a-very-long-name") {
            seen.withLock { $0 = currentThreadName() }
        }
        thread.join()
        #expect(thread.name == "hotstrings-a-ve")
        #expect(seen.withLock { $0 } == "hotstrings-a-ve")
    }

    @Test func manyThreadsAllRunAndAreJoined() throws {
        let count = 64
        let ran = Atomic<Int>(0)
        let threads = try (0..<count).map { index in
            try NamedThread.start(name: "hs-many-\(index)") { ran.add(1, ordering: .relaxed) }
        }
        for thread in threads { thread.join() }
        let ranCount = ran.load(ordering: .relaxed)
        #expect(ranCount == count)
        #expect(Set(threads.map(\.name)).count == count)
    }

    @Test func anUnjoinedThreadStillRunsAndEnds() throws {
        let done = DispatchSemaphore(value: 0)
        // The handle is dropped at once: the thread is detached, not cancelled.
        _ = try NamedThread.start(name: "hs-detached") { done.signal() }
        #expect(done.wait(timeout: .now() + 5) == .success)
    }

    @Test func aTaskPreferringAThreadExecutorRunsThereAndSoDoesTheActorItCalls() async throws {
        let executor = ThreadExecutor(name: "hs-test-exec")
        let counter = Counter()
        let names = await Task(executorPreference: executor) { () async -> [String] in
            var names = [currentThreadName()]
            for _ in 0..<100 { names.append(await counter.increment()) }
            return names
        }.value
        #expect(Set(names) == ["hs-test-exec"])
        #expect(await counter.value == 100)
        executor.finish()
        executor.join()
        #expect(executor.hasEnded)
        #expect(!threadNames().contains("hs-test-exec"))
    }

    @Test func aJobArrivingAfterTheExecutorEndedStillRuns() async throws {
        let executor = ThreadExecutor(name: "hs-test-late")
        executor.finish()
        executor.join()
        // The thread is gone: the task runs on the global executor instead of waiting forever.
        let value = await Task(executorPreference: executor) { 42 }.value
        #expect(value == 42)
    }
}
