import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// Which servers the client commands believe: a daemon of another user is refused unless trusted with
/// `--trust-uid` (issue 9, finding 2: another user can create the socket before the victim's daemon starts).
///
/// The other user is real: the daemon runs as `nobody`, serving a bundle whose greeting only
/// it has, and the commands run as this user (root, whose daemon would be trusted).
@Suite(.needsHotstringsBinary)
struct ServerTrustTests {
    /// A daemon run as `nobody` whose English greeting is "Squatted!"; the test is cancelled where that cannot
    /// be run.
    func squatter(_ sandbox: Sandbox) throws -> DaemonProcess {
        if let reason = otherUserUnavailable { try Test.cancel("needs a second user: \(reason)") }
        try sandbox.save(#""greeting" = "Squatted!";"#, to: "en.lproj/Localizable.strings")
        return try DaemonProcess.servingAsNobody(sandbox)
    }

    @Test func aDaemonOfAnotherUserIsRefusedWithExitTwoAndItsUID() throws {
        let sandbox = try Sandbox()
        let daemon = try squatter(sandbox)
        let arguments = ["get", "greeting", "--language", "en", "--socket", daemon.socket]
        let refused = try runToEnd(arguments)
        #expect(refused.code == 2)
        #expect(refused.stdout.isEmpty, "nothing of the squatter's is printed")
        #expect(refused.stderr == """
            hotstrings get: error: refusing the server at \(daemon.socket): it runs as uid 65534 (pid \(daemon.pid)), \
            not as this user (uid 0) or root; if you trust it, pass --trust-uid 65534

            """)

        let selected = try runToEnd(["select-language", "de", "--socket", daemon.socket])
        #expect(selected.code == 2)
        #expect(selected.stderr.contains("refusing the server at \(daemon.socket): it runs as uid 65534"))
        // Nothing was selected: the daemon still answers in its development language, English.
        let after = try runToEnd(["get", "greeting", "--socket", daemon.socket, "--trust-uid", "65534"])
        #expect(after.stdout == "Squatted!\n", "\(after)")

        let subscribed = try runToEnd(["subscribe", "--socket", daemon.socket])
        #expect(subscribed.code == 2 && subscribed.stdout.isEmpty, "\(subscribed)")

        let demo = try runToEnd(["demo", "--once", "--socket", daemon.socket, "--timeout", "0.3"])
        #expect(demo.code == 2)
        #expect(!demo.stdout.contains("Squatted!"))
        #expect(demo.stderr.contains("refusing the server at \(daemon.socket): it runs as uid 65534"), "\(demo)")
    }

    @Test func trustUIDMakesTheClientTalkToThatUsersDaemon() throws {
        let sandbox = try Sandbox()
        let daemon = try squatter(sandbox)
        let trusted = try runToEnd(["get", "greeting", "--language", "en", "--socket", daemon.socket,
                                    "--trust-uid", "1000", "--trust-uid", "65534"])
        #expect(trusted.code == 0, "\(trusted.stderr)")
        #expect(trusted.stdout == "Squatted!\n")
        let otherUID = try runToEnd(["get", "greeting", "--socket", daemon.socket, "--trust-uid", "1000"])
        #expect(otherUID.code == 2, "trusting another uid does not trust this one")
    }

    @Test func thePythonExampleClientChecksTheServerToo() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else {
            try Test.cancel("no /usr/bin/python3")
        }
        let sandbox = try Sandbox()
        let daemon = try squatter(sandbox)
        func python(_ arguments: [String]) throws -> (code: Int32, output: String) {
            let script = repositoryRoot.path + "/examples/hotstrings_client.py"
            let run = try ProcessRun.tool("/usr/bin/python3", [script, "--socket", daemon.socket] + arguments)
            return (run.code, run.stdout + run.stderr)
        }
        let refused = try python(["get", "greeting", "--language", "en"])
        #expect(refused.code == 2)
        #expect(refused.output.contains("refusing the server at \(daemon.socket): it runs as uid 65534"), "\(refused)")
        #expect(!refused.output.contains("Squatted!"))
        let trusted = try python(["--trust-uid", "65534", "get", "greeting", "--language", "en"])
        #expect(trusted == (0, "Squatted!\n"))
    }

    @Test(arguments: [
        ("nobody", "--trust-uid takes a numeric user ID such as 1000, not 'nobody'"),
        ("1.5", "--trust-uid takes a numeric user ID such as 1000, not '1.5'"),
        ("4294967296", "--trust-uid takes a numeric user ID such as 1000, not '4294967296'"),
        ("1000,x", "--trust-uid takes a numeric user ID such as 1000, not 'x'"),
        ("", "--trust-uid takes a comma-separated list of uids, not ''"),
    ])
    func trustUIDTakesANumericUserID(_ value: String, message: String) throws {
        let result = try runToEnd(["get", "greeting", "--socket", "/nonexistent.sock", "--trust-uid", value])
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix("hotstrings get: error: \(message)\n"), "\(result.stderr)")
    }
}
