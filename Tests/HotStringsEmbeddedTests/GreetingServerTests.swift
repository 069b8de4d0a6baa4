import Foundation
import Glibc
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
        func get(_ target: String, acceptLanguage: String?) throws -> (status: String, body: String, head: String) {
            try Self.get(target, acceptLanguage: acceptLanguage, port: port)
        }

        /// Sends `GET target` to `port` with `acceptLanguage` (none when nil) and reads the whole response.
        static func get(_ target: String, acceptLanguage: String?, port: UInt16) throws
            -> (status: String, body: String, head: String) {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard connected == 0 else { throw TimedOut(description: "cannot connect to port \(port)") }
            var request = "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            if let acceptLanguage { request += "Accept-Language: \(acceptLanguage)\r\n" }
            _ = try Descriptor.write(Array((request + "\r\n").utf8), to: fd)
            var response: [UInt8] = []
            while let bytes = try? Descriptor.read(from: fd, maximumCount: 1 << 16), !bytes.isEmpty {
                response += bytes
            }
            let text = String(decoding: response, as: UTF8.self)
            let parts = text.components(separatedBy: "\r\n\r\n")
            let head = parts.first ?? ""
            let status = head.split(separator: "\r\n").first.map { String($0.dropFirst("HTTP/1.1 ".count)) } ?? ""
            return (status, parts.dropFirst().joined(separator: "\r\n\r\n"), head)
        }
    }

    @Test func eachResponseIsInItsRequestsLanguage() throws {
        let server = try Server()
        let swiss = try server.get("/?count=3", acceptLanguage: "de-CH, fr;q=0.8")
        #expect(swiss.status == "200 OK")
        #expect(swiss.head.hasSuffix("\r\nContent-Language: de"), "\(swiss.head)")
        #expect(swiss.body.hasPrefix("language: de\n"))
        #expect(swiss.body.hasSuffix("Hallo!\n3 Einträge\nWillkommen bei HotStrings\n"), "\(swiss.body)")
        let french = try server.get("/?count=1", acceptLanguage: "it, fr-CA;q=0.9, de;q=0.5")
        #expect(french.body.hasPrefix("language: fr\n"), "\(french.body)")
        let excluded = try server.get("/", acceptLanguage: "de;q=0, fr;q=0")
        #expect(excluded.body.hasPrefix("language: en\n") && excluded.body.hasSuffix("Hello!\n1 item\nWelcome to HotStrings\n"))
        let none = try server.get("/?count=2", acceptLanguage: nil)
        #expect(none.body.hasSuffix("Hello!\n2 items\nWelcome to HotStrings\n"), "\(none.body)")
        let malformed = try server.get("/", acceptLanguage: "de;q=2")
        #expect(malformed.status == "400 Bad Request")
        #expect(malformed.body.contains("'de;q=2': the weight must be q="))
    }

    @Test func aChangeLandingWhileAPageRendersNeverMixesVersionsInIt() throws {
        let server = try Server()
        let first = try server.get("/", acceptLanguage: "de")
        let generation = try #require(first.body.split(separator: "\n").dropFirst().first)   // "generation: N"
        // A slow page: its first text is rendered, then it waits until the test has seen the change land.
        let slow = Mutex<(status: String, body: String, head: String)?>(nil)
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
            try server.get("/", acceptLanguage: "de").body.contains("Hallo, v2!\n")
        }
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let page = try #require(slow.withLock { $0 })
        // Rendered from the snapshot taken before the change: old greeting and old title, never one of each.
        #expect(page.body.contains("\(generation)\nHallo!\n"), "\(page.body)")
        #expect(page.body.hasSuffix("Willkommen bei HotStrings\n"), "\(page.body)")
        let fresh = try server.get("/", acceptLanguage: "de")
        #expect(fresh.body.hasSuffix("Willkommen, v2\n") && !fresh.body.contains(generation))
    }
}
