import HotStringsClient
import Testing

/// `LiveStringsError` can grow: apps match its `code` (a struct, so their `switch` has a `default:`), compare whole
/// errors, and read the details a code documents; the descriptions are those of the enum it replaced.
@Suite struct LiveStringsErrorTests {
    static let rejection = LiveStringsError.rejected(code: "unsupported_language", message: "unsupported language",
                                                     available: ["de", "en"])
    static let untrusted = LiveStringsError.untrustedServer(path: "/run/app.sock", userID: 65534)

    /// What an app writes: a switch over the code, with a default for codes added later.
    static func handling(_ error: LiveStringsError) -> String {
        switch error.code {
        case .rejected where error.rejectionCode == "unsupported_language":
            "offer " + (error.availableLanguages ?? []).joined(separator: ",")
        case .rejected: "rejected"
        case .notConnected, .connectionLost, .timedOut: "retry"
        default: "report \(error.code)"
        }
    }

    @Test func aSwitchOverTheCodeReadsTheDetails() {
        #expect(Self.handling(Self.rejection) == "offer de,en")
        #expect(Self.handling(.rejected(code: "internal", message: "boom", available: nil)) == "rejected")
        #expect(Self.handling(.notConnected) == "retry")
        #expect(Self.handling(.connectionLost) == "retry")
        #expect(Self.handling(.timedOut) == "retry")
        #expect(Self.handling(Self.untrusted) == "report untrustedServer")
        #expect(Self.untrusted.serverPath == "/run/app.sock" && Self.untrusted.serverUserID == 65534)
    }

    @Test func catchClausesMatchByCode() {
        func kind(_ body: () throws -> Void) -> String {
            do {
                try body()
                return "none"
            } catch LiveStringsError.Code.timedOut {
                return "timed out"
            } catch LiveStringsError.Code.rejected {
                return "rejected"
            } catch {
                return "other"
            }
        }
        #expect(kind { throw LiveStringsError.timedOut } == "timed out")
        #expect(kind { throw Self.rejection } == "rejected")
        #expect(kind { throw LiveStringsError.notConnected } == "other")
        #expect(kind { throw CancellationError() } == "other")
        #expect(kind {} == "none")

        func typed(_ error: LiveStringsError) -> Bool {
            switch error {
            case LiveStringsError.Code.untrustedServer: true
            default: false
            }
        }
        #expect(typed(Self.untrusted) && !typed(.connectionLost))
    }

    @Test func equalityComparesTheCodeAndEveryDetail() {
        #expect(LiveStringsError.notConnected == .notConnected)
        #expect(LiveStringsError.notConnected != .connectionLost)
        #expect(Self.rejection == .rejected(code: "unsupported_language", message: "unsupported language",
                                            available: ["de", "en"]))
        #expect(Self.rejection != .rejected(code: "unsupported_language", message: "unsupported language",
                                            available: ["de"]))
        #expect(Self.untrusted != .untrustedServer(path: "/run/app.sock", userID: 0))
        #expect(Set([Self.rejection, Self.rejection, Self.untrusted]).count == 2)
        #expect(Self.rejection.code == .rejected && Self.rejection.code != .timedOut)
    }

    @Test func descriptionsAreThoseOfTheEnumItReplaced() {
        #expect(LiveStringsError.notConnected.description == "not connected to the hotstrings daemon")
        #expect(LiveStringsError.connectionLost.description == "the connection to the hotstrings daemon was lost")
        #expect(LiveStringsError.timedOut.description == "the hotstrings daemon did not answer in time")
        #expect(Self.rejection.description
            == "the hotstrings daemon refused the request: unsupported_language: unsupported language")
        #expect(Self.untrusted.description == "refusing the server at /run/app.sock: it runs as uid 65534, not as "
            + "this user or root, and that uid is not in trustedServerUserIDs")
        #expect(LiveStringsError.Code.notConnected.description == "notConnected")
    }
}
