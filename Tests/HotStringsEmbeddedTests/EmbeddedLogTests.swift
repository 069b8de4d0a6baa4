import Foundation
import HotStringsRelease
import HotStringsTestSupport
import Testing

/// Logs the app owns: an app embedding HotStrings (the page, a pull, a failing pull, a file that does not parse)
/// gets every log line in the sink it gives (`EmbeddedOptions.log`), and nothing reaches its standard error; with
/// the default sink, the same lines go to standard error as the daemon writes them.
///
/// The app is a child process (`hotstrings-embedded-log-probe`), so that its standard error is its own to read.
struct EmbeddedLogTests {
    /// A bundle with a file that does not parse, a release published from another bundle and served on 127.0.0.1.
    private final class Fixture {
        let sandbox: Sandbox
        let published: Sandbox
        let origin: FaultOrigin
        let probe: String

        init() throws {
            guard let probe = builtExecutable(named: "hotstrings-embedded-log-probe") else {
                throw TimedOut(description: "hotstrings-embedded-log-probe is not built")
            }
            self.probe = probe.path
            sandbox = try Sandbox(extraFiles: ["de.lproj/Broken.strings": "\"unfinished\" = ;\n"],
                                  prefix: "hs-embedded-log-")
            published = try Sandbox(tables: [
                "de.lproj/Localizable.strings": "\"greeting\" = \"Hallo aus dem Netz\";\n",
                "en.lproj/Localizable.strings": "\"greeting\" = \"Hello from the web\";\n",
            ], prefix: "hs-embedded-log-release-")
            _ = try Publisher().publish(bundle: published.bundle, to: published.root + "/origin")
            origin = try FaultOrigin(root: published.root + "/origin")
        }

        /// Runs the probe in `mode` (`collect` or `default`), pulling into a folder of its own.
        func run(_ mode: String) async throws -> ProcessRun {
            let arguments = [mode, sandbox.bundle, sandbox.root + "/pulled-" + mode, origin.url]
            return try await offThePool { [probe] in
                try ProcessRun.tool(probe, arguments, timeout: .seconds(120))
            }
        }
    }

    private func fixture() throws -> Fixture {
        do {
            return try Fixture()
        } catch let missing as TimedOut {
            try Test.cancel("\(missing)")
        }
    }

    @Test func everyLineGoesToTheAppsSinkAndNoneToStandardError() async throws {
        let run = try await fixture().run("collect")
        #expect(run.code == 0, "\(run.stdout)")
        #expect(run.stderr == "")
        let lines = run.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("info\tweb: http://127.0.0.1:") && $0.contains("/?token=") }, "\(lines)")
        #expect(lines.contains("warning\tweb: no state directory; the token lasts until the daemon stops\t"),
                "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warning\tweb: refused GET /api/tables (403): ") }, "\(lines)")
        #expect(lines.contains { $0.hasPrefix("warning\tweb: refused a request (400): ") }, "\(lines)")
        // Each line one record: level, message, metadata.
        #expect(lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 3 },
                "\(lines)")
    }

    @Test func theDefaultSinkWritesTheDaemonsLinesToStandardError() async throws {
        let run = try await fixture().run("default")
        #expect(run.code == 0, "\(run.stdout)")
        #expect(run.stdout == "")
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("hotstrings: info: web: http://127.0.0.1:") }, "\(lines)")
        #expect(lines.contains("hotstrings: warning: web: no state directory; the token lasts until the daemon stops"),
                "\(lines)")
        #expect(lines.contains { $0.hasPrefix("hotstrings: warning: web: refused GET /api/tables (403): ") },
                "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix("hotstrings: ") }, "\(lines)")
    }
}
