import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

@Suite(.needsHotstringsBinary)
struct LifecycleTests {
    @Test func aRestartKeepsTheSelectedLanguage() throws {
        let sandbox = try Sandbox()
        var daemon = try DaemonProcess.serving(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        _ = try subscriber.request(#"{"id":1,"op":"subscribe","snapshot":false}"#)
        let client = try LineClient(socket: sandbox.socket)
        let firstEpoch = try #require(try client.request(#"{"id":1,"op":"hello"}"#).int("epoch"))

        let selected = try client.request(#"{"id":2,"op":"select-language","language":"fr"}"#)
        #expect(selected.string("selected") == "fr")
        let event = try subscriber.nextMessage()
        #expect(event.string("event") == "language")
        #expect(event.string("language") == "fr")
        #expect(event["previous"] == .null)

        let unknown = try client.request(#"{"id":3,"op":"select-language","language":"xx"}"#)
        #expect(unknown["error"]?.string("code") == "unsupported_language")
        #expect(unknown["error"]?["available"]?.arrayValue?.contains("fr") == true)

        #expect(try daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket), "the socket file is removed on exit")
        #expect(try subscriber.readUntilClosed() != nil, "subscribers see the connection close")

        daemon = try DaemonProcess.serving(sandbox)
        let again = try LineClient(socket: sandbox.socket)
        let languages = try again.request(#"{"id":1,"op":"languages"}"#)
        #expect(languages.string("selected") == "fr")
        #expect(try again.request(#"{"id":2,"op":"hello"}"#).int("epoch") != firstEpoch, "the epoch is new per start")
        // The selection answers lookups that name no language before the development language does.
        let lookup = try again.request(#"{"id":3,"op":"get","key":"greeting"}"#)
        #expect(lookup.string("language") == "fr")

        #expect(try again.request(#"{"id":4,"op":"select-language","language":null}"#)["selected"] == .null)
        #expect(try daemon.terminate() == 0)
        daemon = try DaemonProcess.serving(sandbox)
        let cleared = try LineClient(socket: sandbox.socket).request(#"{"id":1,"op":"languages"}"#)
        #expect(cleared["selected"] == .null)
        #expect(try daemon.terminate() == 0)
    }

    @Test func aSecondDaemonOnTheSameSocketIsRefused() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let second = try DaemonProcess(sandbox)
        #expect(second.waitForExit() == 1)
        #expect(second.log.contains("already listening on \(sandbox.socket)"), "log: \(second.log)")
        #expect(try LineClient(socket: sandbox.socket).request(#"{"id":1,"op":"hello"}"#)["ok"] == true)
        #expect(try daemon.terminate() == 0)
    }

    @Test func aStaleSocketFileIsReplaced() throws {
        let sandbox = try Sandbox()
        let crashed = try DaemonProcess.serving(sandbox)
        crashed.crash()
        #expect(FileManager.default.fileExists(atPath: sandbox.socket), "SIGKILL leaves the socket file behind")
        #expect(!UnixSocket.isListening(atPath: sandbox.socket))

        let daemon = try DaemonProcess.serving(sandbox)
        #expect(daemon.log.contains("replacing the stale socket file"), "log: \(daemon.log)")
        let hello = try LineClient(socket: sandbox.socket).request(#"{"id":1,"op":"hello"}"#)
        #expect(hello.string("root")?.hasSuffix("/bundle") == true)
        #expect(try daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket))
    }

    /// SIGHUP is an explicit full rescan, and subscribers hear of it as such: a `resync` with its own reason,
    /// `requested`, then a fresh snapshot (before, the reason was lost between the watcher's and the store's
    /// enums, and the rescan passed unannounced).
    @Test func sighupRescansAndSigintStopsCleanly() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        let before = try #require(try client.request(#"{"id":1,"op":"subscribe","snapshot":false}"#).int("seq"))
        try Signals.send(.hangup, toProcess: daemon.pid)
        #expect(waitUntil { daemon.log.contains("SIGHUP: rescanning") })
        let resync = try client.nextMessage()
        #expect(resync.string("event") == "resync")
        #expect(resync.string("reason") == "requested")
        #expect(resync.int("seq") == before + 1)
        let snapshot = try client.nextMessage()
        #expect(snapshot.string("event") == "snapshot")
        #expect(snapshot.int("seq") == before + 1)
        // The rescan of an unchanged bundle reloads nothing: the next event is the edit's.
        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        let reload = try client.nextMessage()
        #expect(reload.string("event") == "reload")
        #expect(reload.int("seq") == before + 2)
        #expect(changes(of: reload) == [germanEdit])
        #expect(try client.request(#"{"id":2,"op":"status"}"#).int("tables") == 15)

        try Signals.send(.interrupt, toProcess: daemon.pid)
        #expect(daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket))
        #expect(try client.readUntilClosed() != nil)
    }
}
