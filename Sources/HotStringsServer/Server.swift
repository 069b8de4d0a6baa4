import BundleWatcher
import HotStringsFront
import HotStringsService
import LinuxSystem

/// How `hotstrings serve` runs: the service's options, and the socket's.
package struct ServerConfiguration: Sendable {
    /// The bundle, its settling, the state directory and the pulling, checked once (`ServiceHost.Options`).
    package var service: ServiceOptions
    /// The socket path (ignored under systemd socket activation).
    package var socketPath: String
    /// The socket file's mode.
    package var socketMode: UInt32 = 0o600
    /// Users besides our own and root that may connect.
    package var allowedUserIDs: Set<UInt32> = []
    /// Per-client buffer and request limits.
    var limits = IOLoop.Limits()
    /// The page on 127.0.0.1 (`--web PORT`); nil: none.
    package var web: WebOptions?
    /// How long shutdown waits for clients to read what is queued for them.
    package var shutdownGrace: Duration = .seconds(1)

    /// A configuration with defaults for everything but the service and the socket.
    package init(service: ServiceOptions, socketPath: String) {
        self.service = service
        self.socketPath = socketPath
    }

    /// Unsent bytes a client may have before it is resynchronized (8 MiB by default).
    package var clientBufferBytes: Int {
        get { limits.outboxBytes }
        set { limits.outboxBytes = newValue }
    }
}

/// Why the server could not start.
package struct ServerStartError: Error, CustomStringConvertible {
    /// What went wrong, for the one-line message on standard error.
    package var description: String
}

/// Runs the daemon as `hotstrings serve` does.
package enum Server {
    /// Runs a `Daemon` on the calling thread until a termination signal; returns the exit status.
    ///
    /// Call from the main thread before any other thread starts (see `Daemon.run`).
    /// - Throws: `ServerStartError` when the socket or the bundle cannot be set up.
    package static func run(_ configuration: ServerConfiguration) throws(ServerStartError) -> Int32 {
        try Daemon(configuration).run()
    }
}
