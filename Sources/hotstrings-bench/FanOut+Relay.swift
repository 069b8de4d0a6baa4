import Foundation

extension FanOut {
    /// Medians of a fan-out: until the first and the last subscriber read the line.
    struct Timing {
        var firstSeconds: Double
        var lastSeconds: Double
        var maximumLastSeconds: Double
    }

    /// Measures the bare relay (`FanOutRelay`) for the same count and line size, prints it next to the
    /// daemon's figures and returns whether the daemon's fan-out alone is within 1.5x of it (DESIGN.md).
    ///
    /// Two ratios: the whole (from the save, so the daemon's figure also holds the watcher and the store,
    /// about one reload latency) and the fan-out alone (first to last subscriber, the part the relay models).
    static func compareWithRelay(_ daemon: Result, subscribers count: Int) throws -> Bool {
        let relay = try FanOutRelay.measure(subscribers: count, lineBytes: daemon.eventBytes, rounds: rounds)
        let daemonSpread = daemon.lastSeconds - daemon.firstSeconds
        let relaySpread = relay.lastSeconds - relay.firstSeconds
        let whole = daemon.lastSeconds / relay.lastSeconds
        let spread = daemonSpread / relaySpread
        print(String(format: "  relay reference (%d sockets, %d-byte line, same calls): last read after %.2f ms "
                     + "(first %.2f ms)", count, daemon.eventBytes, relay.lastSeconds * 1e3, relay.firstSeconds * 1e3))
        print(String(format: "  daemon / relay from the save: %.2fx (the daemon's figure holds the watcher and the store)",
                     whole))
        print(String(format: "  fan-out alone to %d subscribers (first to last subscriber read): daemon %.2f ms, "
                     + "relay %.2f ms: %.2fx", count, daemonSpread * 1e3, relaySpread * 1e3, spread))
        let passes = spread <= 1.5
        print("  bar fan-out alone <= 1.5x the relay: \(passes ? "PASS" : "FAIL")")
        return passes
    }
}
