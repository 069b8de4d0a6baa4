import Foundation
import LinuxSystem

/// A real `hotstrings serve BUNDLE --pull URL` on one of a fixture's bundles, with the helpers the pull tests read
/// it through: `status --json`, lookups, subscribers counting reloads (used by the release tests and
/// `hotstrings-bench ota`).
package final class PullingDaemon {
    package let daemon: DaemonProcess
    package let bundle: String
    package var socket: String { daemon.socket }

    /// Starts a daemon pulling `url` into `bundle` every `interval` seconds, its socket and state folder beside the
    /// bundle, and waits until it serves.
    package init(bundle: String, url: String, interval: String = "1", arguments: [String] = [],
                 name: String = "pulled") throws {
        self.bundle = bundle
        let folder = (bundle as NSString).deletingLastPathComponent
        daemon = try DaemonProcess(bundle: bundle, socket: folder + "/\(name).sock",
                                   stateDirectory: folder + "/\(name)-state",
                                   arguments: ["--pull", url, "--pull-interval", interval] + arguments, logName: name)
        try daemon.waitUntilServing()
    }

    /// The daemon's `status` answer.
    package func status() throws -> [String: Any] {
        let run = try HotstringsProcess.run(["status", "--json", "--socket", socket])
        guard run.code == 0, let object = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
            as? [String: Any] else { throw TimedOut(description: "status failed: \(run.stdout) \(run.stderr)") }
        return object
    }

    /// The `pull` member of the status answer.
    package func pullStatus() throws -> [String: Any] {
        guard let pull = try status()["pull"] as? [String: Any] else { throw TimedOut(description: "no pull status") }
        return pull
    }

    /// Waits for a pull made after `date` that found the origin unchanged (answered 304).
    package func waitForUnchangedPull(after date: Date) throws {
        try waitUntil("a pull after \(date) finding the origin unchanged", timeout: .seconds(10)) {
            let pull = try self.pullStatus()
            return (statusDate(pull["lastPull"]) ?? .distantPast) > date && pull["result"] as? String == "not-modified"
        }
    }

    /// The release the daemon's status names as installed.
    package func release() throws -> String? { try status()["release"] as? String }

    /// Waits until the status names `release` as installed.
    package func waitForRelease(_ release: String, timeout: Duration = .seconds(20)) throws {
        try waitUntil("release \(release) in \(bundle)'s status", timeout: timeout) {
            try self.release() == release
        }
    }

    /// `get greeting --language de`'s output.
    package func germanGreeting() throws -> String {
        try HotstringsProcess.run(["get", "greeting", "--language", "de", "--socket", socket]).stdout
    }

    /// A subscriber, once it has its snapshot.
    package func subscribe() throws -> HotstringsProcess { try HotstringsProcess.subscriber(socket: socket) }

    /// Stops the daemon with SIGTERM; its exit status.
    @discardableResult
    package func terminate() throws -> Int32? { try daemon.terminate() }
}

extension HotstringsProcess {
    /// A `hotstrings subscribe` on `socket`, once it has its snapshot.
    package static func subscriber(socket: String) throws -> HotstringsProcess {
        let subscriber = try HotstringsProcess(["subscribe", "--socket", socket])
        try subscriber.stdout.wait(untilContains: #""event":"snapshot""#)
        return subscriber
    }

    /// The `reload` events a subscriber printed so far.
    package var reloads: Int { stdout.text.components(separatedBy: #""event":"reload""#).count - 1 }

    /// The `error` event lines a subscriber printed so far.
    package var errorEvents: [String] {
        stdout.text.split(separator: "\n").map(String.init).filter { $0.contains(#""event":"error""#) }
    }
}

/// RFC 3339 with milliseconds, as `status` writes times.
package func statusDate(_ value: Any?) -> Date? {
    guard let text = value as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text)
}
