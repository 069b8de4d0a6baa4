import Foundation
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// The example server of `examples/greeting-server`, really started: each response is in its request's
/// Accept-Language, and a change landing while a page renders never mixes two versions in it.
@Suite struct GreetingServerTests {
    /// A started `greeting-server` on a copy of `sample-bundle`.
    final class Server {
        let sandbox: Sandbox
        let process: ChildProcess
        let output: PipeReader
        let log: PipeReader
        let port: UInt16

        init() throws {
            guard let executable = builtExecutable(named: "greeting-server") else {
                throw TimedOut(description: "greeting-server is not next to the test runner: build it first")
            }
            sandbox = try Sandbox()
            process = try ChildProcess(ChildProcess.Configuration(executable.path, [sandbox.bundle, "0"]))
            output = PipeReader(process.standardOutput!)
            log = PipeReader(process.standardError!)
            try output.wait(for: "the server to listen") { $0.hasSuffix("\n") }
            guard let port = output.text.split(separator: ":").last.flatMap({ UInt16($0.dropLast()) }) else {
                throw TimedOut(description: "no port in '\(output.text)'; log: \(log.text)")
            }
            self.port = port
        }

        deinit {
            try? process.send(.kill)
            _ = process.waitForExit()
        }

        /// Sends `GET target` with `acceptLanguage` (none when nil) and reads the whole response.
        func get(_ target: String, acceptLanguage: String?) throws -> WebClient.Response {
            try Self.get(target, acceptLanguage: acceptLanguage, port: port)
        }

        /// Sends `GET target` to `port` with `acceptLanguage` (none when nil) and reads the whole response.
        static func get(_ target: String, acceptLanguage: String?, port: UInt16) throws -> WebClient.Response {
            let client = try WebClient(port: port, timeout: .seconds(30))
            client.request("GET", target, port: port, headers: acceptLanguage.map { [("Accept-Language", $0)] } ?? [])
            return try client.response()
        }
    }

    @Test func eachResponseIsInItsRequestsLanguage() throws {
        let server = try Server()
        let swiss = try server.get("/?count=3", acceptLanguage: "de-CH, fr;q=0.8")
        #expect(swiss.status == 200)
        #expect(swiss.headers["content-language"] == "de", "\(swiss.headers)")
        #expect(swiss.text.hasPrefix("language: de\n"))
        #expect(swiss.text.hasSuffix("Hallo!\n3 Einträge\nWillkommen bei HotStrings\n"), "\(swiss.text)")
        let french = try server.get("/?count=1", acceptLanguage: "it, fr-CA;q=0.9, de;q=0.5")
        #expect(french.text.hasPrefix("language: fr\n"), "\(french.text)")
        let excluded = try server.get("/", acceptLanguage: "de;q=0, fr;q=0")
        #expect(excluded.text.hasPrefix("language: en\n") && excluded.text.hasSuffix("Hello!\n1 item\nWelcome to HotStrings\n"))
        let none = try server.get("/?count=2", acceptLanguage: nil)
        #expect(none.text.hasSuffix("Hello!\n2 items\nWelcome to HotStrings\n"), "\(none.text)")
        let malformed = try server.get("/", acceptLanguage: "de;q=2")
        #expect(malformed.status == 400)
        #expect(malformed.text.contains("'de;q=2': the weight must be q="))
    }

    @Test func aChangeLandingWhileAPageRendersNeverMixesVersionsInIt() throws {
        let server = try Server()
        let first = try server.get("/", acceptLanguage: "de")
        let generation = try #require(first.text.split(separator: "\n").dropFirst().first)   // "generation: N"
        // A slow page: its first text is rendered, then it waits until the test has seen the change land.
        let slow = Mutex<WebClient.Response?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let port = server.port
        Thread.detachNewThread {
            slow.withLock { $0 = try? Server.get("/?slow=4000", acceptLanguage: "de", port: port) }
            finished.signal()
        }
        try server.log.wait(untilContains: "GET /?slow=4000 -> de, \(generation.replacingOccurrences(of: ":", with: ""))")
        // The whole table changes at once, as a release or an editor's save does: greeting and title.
        let german = try server.sandbox.read("de.lproj/Localizable.strings")
        try server.sandbox.save(german.replacingOccurrences(of: "\"Hallo!\"", with: "\"Hallo, v2!\"")
            .replacingOccurrences(of: "\"Willkommen bei HotStrings\"", with: "\"Willkommen, v2\""),
            to: "de.lproj/Localizable.strings")
        try waitUntil("the change to reach a new page") {
            try server.get("/", acceptLanguage: "de").text.contains("Hallo, v2!\n")
        }
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let page = try #require(slow.withLock { $0 })
        // Rendered from the snapshot taken before the change: old greeting and old title, never one of each.
        #expect(page.text.contains("\(generation)\nHallo!\n"), "\(page.text)")
        #expect(page.text.hasSuffix("Willkommen bei HotStrings\n"), "\(page.text)")
        let fresh = try server.get("/", acceptLanguage: "de")
        #expect(fresh.text.hasSuffix("Willkommen, v2\n") && !fresh.text.contains(generation))
    }
}
