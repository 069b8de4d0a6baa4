import Glibc
import Synchronization

/// An inotify instance: a non-blocking, close-on-exec descriptor that reports changes under watched paths.
///
/// Wait for `fileDescriptor` to become readable with a `Poller`, then call `readEvents()`. The descriptor is
/// closed by `close()` or when the instance is released; do not close it while another thread reads it.
package final class Inotify: Sendable {
    /// Bytes per `read`: room for at least 64 KiB of records, so a busy queue drains in few calls.
    package static let readBufferSize = 64 * 1024

    /// The most reads one `readEvents()` makes, so that a writer faster than the reader cannot keep it busy
    /// forever; the descriptor stays readable and the next wait returns at once.
    private static let maximumReadsPerCall = 256

    private let descriptor: Atomic<Int32>

    /// Creates an instance with `inotify_init1(IN_NONBLOCK | IN_CLOEXEC)`.
    /// - Throws: `SystemError` from `inotify_init1`; `.tooManyOpenFiles` when `max_user_instances` is reached.
    package init() throws(SystemError) {
        let fd = try retryingOnInterrupt { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }.get("inotify_init1")
        descriptor = Atomic(fd)
    }

    deinit {
        close()
    }

    /// The inotify descriptor, for a `Poller`; -1 once closed.
    package var fileDescriptor: Int32 {
        descriptor.load(ordering: .acquiring)
    }

    /// Watches `path` for the events in `mask` with `inotify_add_watch`, returning the watch descriptor.
    ///
    /// Adding a path that is already watched (the same inode) returns the same descriptor and replaces its
    /// mask, unless `mask` contains `.maskAdd`.
    /// - Throws: `SystemError` naming `path`; `.noSpace` when the user's watch limit is reached,
    ///   `.notDirectory` for a file with `.onlyDirectory`, `.noSuchFileOrDirectory` for a missing path.
    package func addWatch(_ path: String, mask: InotifyMask) throws(SystemError) -> Int32 {
        let fd = fileDescriptor
        return try retryingOnInterrupt { inotify_add_watch(fd, path, mask.rawValue) }
            .get("inotify_add_watch", path: path)
    }

    /// Removes a watch with `inotify_rm_watch`; the kernel then queues an `.ignored` event for it.
    ///
    /// A watch the kernel already removed (its directory was deleted) is not an error, so failures are ignored.
    package func removeWatch(_ watch: Int32) {
        let fd = fileDescriptor
        _ = retryingOnInterrupt { inotify_rm_watch(fd, watch) }
    }

    /// Reads and decodes every queued event with `read`, until the queue is empty (`EAGAIN`).
    ///
    /// Returns [] when nothing is queued. Uses a buffer of `readBufferSize` bytes.
    /// - Throws: `SystemError` from `read` (`.badFileDescriptor` after `close()`).
    package func readEvents() throws(SystemError) -> [InotifyEvent] {
        let fd = fileDescriptor
        let buffer = UnsafeMutableRawBufferPointer.allocate(
            byteCount: Self.readBufferSize,
            alignment: MemoryLayout<inotify_event>.alignment
        )
        defer { buffer.deallocate() }
        var events: [InotifyEvent] = []
        for _ in 0..<Self.maximumReadsPerCall {
            let result = nilOnWouldBlock(retryingOnInterrupt { read(fd, buffer.baseAddress, buffer.count) })
            guard let count = try result.get("read"), count > 0 else {
                break
            }
            events += InotifyEventDecoder.decode(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return events
    }

    /// Closes the descriptor with `close`, which drops every watch; later calls fail with `.badFileDescriptor`.
    package func close() {
        let fd = descriptor.exchange(-1, ordering: .acquiringAndReleasing)
        if fd >= 0 {
            _ = Glibc.close(fd)
        }
    }
}
