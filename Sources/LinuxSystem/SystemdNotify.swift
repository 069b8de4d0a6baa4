import Glibc

/// Status messages to systemd's service manager (`sd_notify`'s protocol), for `Type=notify` units.
package enum SystemdNotify {
    /// Sends `state` to the socket named by `$NOTIFY_SOCKET`; see `notify(_:socketPath:)`.
    ///
    /// Returns false, sending nothing, when the variable is not set (not started by systemd).
    package static func notify(_ state: String) -> Bool {
        guard let path = Environment.value("NOTIFY_SOCKET") else {
            return false
        }
        return notify(state, socketPath: path)
    }

    /// Sends `state`, such as "READY=1" or several newline-separated assignments, as one datagram to
    /// `socketPath` with `socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC)` and `sendto(MSG_NOSIGNAL)`.
    ///
    /// A path starting with "@" is a Linux abstract socket name. Returns whether the whole message was sent;
    /// failures are not thrown, since a service manager that went away must not stop the service.
    package static func notify(_ state: String, socketPath: String) -> Bool {
        guard let address = try? UnixSocketAddress(pathOrAbstractName: socketPath, operation: "sendto"),
            let fd = try? UnixSocket.makeSocket(SOCK_DGRAM, nonBlocking: false)
        else {
            return false
        }
        defer { _ = Glibc.close(fd) }
        let message = Array(state.utf8)
        let result = message.withUnsafeBytes { bytes in
            retryingOnInterrupt {
                address.withSocketAddress { sendto(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
            }
        }
        return (try? result.get()) == message.count
    }
}
