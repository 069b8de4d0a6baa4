import Glibc
import Synchronization

/// A `TaskExecutor` that runs every job on one named thread of its own, in the order the jobs arrive.
///
/// A task started with `Task(executorPreference:)` runs here, and so do the default actors it calls (their
/// jobs follow the task's preferred executor, SE-0417), so the work it does never waits for a thread of
/// Swift's cooperative pool: a program that blocks the pool's threads (a synchronous wait in a test, an app
/// that blocks in an async function) does not stall it.
///
/// `finish()` ends the thread once the jobs queued by then have run; jobs that arrive after the thread has
/// ended go to the global concurrent executor, so a late job is never lost.
package final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
    // @unchecked: `wakeUp` is a POSIX semaphore, which is thread-safe by definition; it is allocated once,
    // never moved, and freed only in deinit, when no thread can use it any more. The rest is in the Mutex.
    private struct Queue {
        var jobs: [UnownedJob] = []
        var isFinishing = false
        var hasEnded = false
    }

    private let queue = Mutex(Queue())
    private let wakeUp: UnsafeMutablePointer<sem_t>
    private let thread = Mutex<NamedThread?>(nil)

    /// Starts the thread, called `name` (cut to 15 bytes).
    package init(name: String) {
        wakeUp = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        let result = sem_init(wakeUp, 0, 0)
        precondition(result == 0, "sem_init: \(Errno.current)")
        let started = NamedThread.run(name: name) { [self] in runJobs() }
        thread.withLock { $0 = started }
    }

    deinit {
        sem_destroy(wakeUp)
        wakeUp.deallocate()
    }

    /// Queues `job` for the thread (or the global executor once the thread has ended).
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let isQueued = queue.withLock { queue in
            guard !queue.hasEnded else { return false }
            queue.jobs.append(job)
            return true
        }
        guard isQueued else { return globalConcurrentExecutor.enqueue(job) }
        sem_post(wakeUp)
    }

    /// Lets the thread end once it has run the jobs queued so far; returns at once (see `join()`).
    package func finish() {
        queue.withLock { $0.isFinishing = true }
        sem_post(wakeUp)
    }

    /// Waits until the thread has ended; call after `finish()`, not from a job of this executor.
    package func join() {
        thread.withLock { $0.take() }?.join()
    }

    /// Whether the thread has ended.
    package var hasEnded: Bool { queue.withLock { $0.hasEnded } }

    private func runJobs() {
        let executor = asUnownedTaskExecutor()
        while true {
            while sem_wait(wakeUp) != 0 {
                precondition(Errno.current == .interrupted, "sem_wait: \(Errno.current)")
            }
            let jobs = queue.withLock { queue -> [UnownedJob]? in
                if queue.jobs.isEmpty && queue.isFinishing {
                    queue.hasEnded = true
                    return nil
                }
                defer { queue.jobs.removeAll(keepingCapacity: true) }
                return queue.jobs
            }
            guard let jobs else { return }
            // Each job was posted once; the extra posts it leaves behind find an empty queue, and cost a lock.
            for job in jobs { job.runSynchronously(on: executor) }
        }
    }
}
