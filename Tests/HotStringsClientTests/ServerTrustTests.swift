import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing
@testable import HotStringsClient

/// `LiveStrings` believes only a daemon of its own user, root, or a user in `trustedServerUserIDs` (issue 9,
/// finding 2). The other user is real: the daemon runs as `nobody` and serves a German
/// greeting only it has.
@Suite(.needsHotstringsBinary)
struct ServerTrustTests {
    @Test func aDaemonOfAnotherUserIsNeverBelievedAndRequestsSayWhy() async throws {
        if let reason = otherUserUnavailable { try Test.cancel("needs a second user: \(reason)") }
        let sandbox = try Sandbox(prefix: "hs-lib-")
        try sandbox.save(#""greeting" = "Besetzt!";"#, to: "de.lproj/Localizable.strings")
        let daemon = try await DaemonProcess.servingAsNobody(sandbox)

        let strings = LiveStrings(configuration: .init(
            socketPath: daemon.socket, environment: ["LANG": "de"], reconnectDelay: .milliseconds(5),
            maximumReconnectDelay: .milliseconds(20)))
        defer { strings.stop() }
        // Wait until a connection attempt has been refused: a request then says why instead of "not connected".
        // Generous: tests running beside this one may hold thousands of descriptors for a while, and an attempt
        // that cannot even make a socket (EMFILE) is just "not connected".
        let deadline = ContinuousClock.now + .seconds(90)
        var refusal: LiveStringsError?
        var lastError: LiveStringsError?
        while refusal == nil, ContinuousClock.now < deadline {
            do {
                try await strings.setLanguage("de")
                Issue.record("a request reached the squatter")
                break
            } catch where error.code == .untrustedServer {
                refusal = error
            } catch {
                lastError = error
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        #expect(refusal == .untrustedServer(path: daemon.socket, userID: nobodyUserID),
                "last error: \(String(describing: lastError))")
        #expect(refusal?.description.contains("uid 65534") == true)
        // Several attempts later, still nothing of the squatter's.
        #expect(await !strings.waitUntilSynchronized(timeout: .milliseconds(200)))
        #expect(!strings.isConnected)
        #expect(strings.localizedString("greeting") == "greeting")
        #expect(strings.supportedLanguages.isEmpty)

        let trusting = LiveStrings(configuration: .init(
            socketPath: daemon.socket, environment: ["LANG": "de"], trustedServerUserIDs: [nobodyUserID]))
        defer { trusting.stop() }
        #expect(await trusting.waitUntilSynchronized(timeout: .seconds(60)))
        #expect(trusting.localizedString("greeting") == "Besetzt!")
    }
}

/// The rule itself, in memory.
@Suite struct ServerTrustRuleTests {
    @Test(arguments: [
        (UInt32(1000), true, "the client's own user"),
        (UInt32(0), true, "root"),
        (UInt32(2000), true, "a trusted user"),
        (UInt32(65534), false, "anyone else"),
    ])
    func trustsItsOwnUserRootAndTrustedUsersOnly(server: UInt32, isTrusted: Bool, who: String) {
        let trust = ServerTrust(trustedUserIDs: [2000, 3000], ownUserID: 1000)
        #expect(trust.trusts(userID: server) == isTrusted, "\(who)")
    }

    @Test func byDefaultOnlyTheProcesssOwnUserAndRootAreTrusted() {
        let trust = ServerTrust()
        #expect(trust.trustedUserIDs.isEmpty)
        #expect(trust.trusts(userID: ProcessStatistics.userID))
        #expect(trust.trusts(userID: 0))
        #expect(!trust.trusts(userID: ProcessStatistics.userID &+ 1) || ProcessStatistics.userID &+ 1 == 0)
    }
}
