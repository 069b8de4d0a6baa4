import Glibc

/// Listening sockets handed over by systemd's socket activation (`sd_listen_fds`'s protocol).
package enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    package static let firstDescriptor: Int32 = 3

    /// The descriptors systemd passed to this process, marked close-on-exec and non-blocking with `fcntl`; [] when
    /// the process was not socket-activated. See `listenerDescriptors(environment:pid:)`.
    package static func listenerDescriptors() -> [Int32] {
        var environment: [String: String] = [:]
        for name in ["LISTEN_PID", "LISTEN_FDS"] {
            environment[name] = Environment.value(name)
        }
        let descriptors = listenerDescriptors(environment: environment, pid: getpid())
        for fd in descriptors {
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 {
                _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC)
            }
            // systemd passes blocking sockets unless the unit says NonBlocking=yes; an event loop's accept
            // on a blocking listener would hang once the backlog is empty.
            let statusFlags = fcntl(fd, F_GETFL)
            if statusFlags >= 0 {
                _ = fcntl(fd, F_SETFL, statusFlags | O_NONBLOCK)
            }
        }
        return descriptors
    }

    /// The descriptors `environment` describes for the process `pid`: `[3, 3 + LISTEN_FDS)` when
    /// `LISTEN_PID` is `pid` and `LISTEN_FDS` is a positive decimal count; [] otherwise.
    ///
    /// `LISTEN_PID` keeps a child that inherited the variables from taking its parent's sockets.
    package static func listenerDescriptors(environment: [String: String], pid: Int32) -> [Int32] {
        guard let listenPID = environment["LISTEN_PID"].flatMap(decimal), listenPID == Int(pid),
            let count = environment["LISTEN_FDS"].flatMap(decimal), count > 0,
            count <= Int(Int32.max - firstDescriptor)
        else {
            return []
        }
        return Array(firstDescriptor..<firstDescriptor + Int32(count))
    }

    /// The value of an unsigned decimal number made of ASCII digits only (no sign, no spaces).
    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) })
        else {
            return nil
        }
        return Int(text)
    }
}
