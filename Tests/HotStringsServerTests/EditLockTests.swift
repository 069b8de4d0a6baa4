import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing

/// A language folder's `flock`, which any process that can read the bundle can take, held by a real `flock(1)`:
/// a `set` through the daemon waits for it on a worker, never on the core, so every other client is served
/// meanwhile; past `--edit-lock-timeout` it fails with `busy` and nothing written.
@Suite(.needsHotstringsBinary)
struct EditLockTests {
    @Test func aSetWaitsForTheFolderLockWhileOtherClientsAreServed() throws {
        guard HeldFolderLock.executable != nil else { try Test.cancel("flock (util-linux) is not installed") }
        let sandbox = try Sandbox()
        // Far longer than the test: the set must wait for the release, not time out.
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--edit-lock-timeout", "10m"])
        let subscriber = try LineClient(socket: sandbox.socket)
        let seq = try #require(try subscriber.request(#"{"id":1,"op":"subscribe","snapshot":false}"#).int("seq"))
        let folder = sandbox.bundle + "/de.lproj"
        let german = try sandbox.read("de.lproj/Localizable.strings")
        let lock = try HeldFolderLock(folder)
        let openBefore = descriptorCount(of: daemon.pid, openOn: folder)

        let writer = try LineClient(socket: sandbox.socket)
        try writer.send(#"{"id":2,"op":"set","key":"greeting","value":"Servus","language":"de"}"#)
        try waitUntil("the set to wait for the folder's lock") {
            descriptorCount(of: daemon.pid, openOn: folder) > openBefore
        }

        // Meanwhile: another client's get and subscribe, and an editor's save, are served.
        let reader = try LineClient(socket: sandbox.socket)
        let get = try reader.request(#"{"id":3,"op":"get","key":"greeting","language":"de"}"#)
        #expect(get["ok"] == true)
        #expect(get.string("value") == "Hallo!")
        let late = try LineClient(socket: sandbox.socket)
        #expect(try late.request(#"{"id":4,"op":"subscribe"}"#)["ok"] == true)
        #expect(try late.nextEvent("snapshot").event.int("seq") == seq)
        try sandbox.save("\"extra\" = \"1\";\n", to: "fr.lproj/Extra.strings")
        let (save, _) = try subscriber.nextEvent("reload")
        #expect(save.int("seq") == seq + 1)
        #expect(changes(of: save).map(\.table) == ["Extra"])
        // The set has not been answered, and nothing was written.
        try writer.readAvailable()
        #expect(writer.queuedLineCount == 0)
        #expect(try sandbox.read("de.lproj/Localizable.strings") == german)

        try lock.release()
        let answer = try writer.nextMessage(timeout: .seconds(20))
        #expect(answer.int("id") == 2)
        #expect(answer["ok"] == true)
        #expect(answer.string("file") == "de.lproj/Localizable.strings")
        let (edit, _) = try subscriber.nextEvent("reload", timeout: .seconds(20))
        #expect(edit.int("seq") == seq + 2)
        #expect(changes(of: edit) == [ChangeRecord(language: "de", table: "Localizable",
                                                   file: "de.lproj/Localizable.strings", kind: "updated",
                                                   changed: ["greeting": "Servus"])])
        #expect(try daemon.terminate() == 0)
    }

    /// Requests a client sends behind a waiting set are answered after it, in order, and two sets of one key land
    /// in the order they came; writers waiting for a lock do not fill the core's backlog (4) for the others.
    @Test func waitingSetsKeepTheirOrderAndLeaveTheCoreToOthers() throws {
        guard HeldFolderLock.executable != nil else { try Test.cancel("flock (util-linux) is not installed") }
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--edit-lock-timeout", "10m"])
        let folder = sandbox.bundle + "/de.lproj"
        let lock = try HeldFolderLock(folder)
        let openBefore = descriptorCount(of: daemon.pid, openOn: folder)

        let writer = try LineClient(socket: sandbox.socket)
        try writer.send(#"{"id":1,"op":"set","key":"greeting","value":"Eins","language":"de"}"#)
        try writer.send(#"{"id":2,"op":"get","key":"greeting","language":"de"}"#)
        try writer.send(#"{"id":3,"op":"set","key":"greeting","value":"Zwei","language":"de"}"#)
        try writer.send(#"{"id":4,"op":"hello"}"#)
        var others: [LineClient] = []
        for index in 0..<5 {
            let other = try LineClient(socket: sandbox.socket)
            try other.send(#"{"id":\#(10 + index),"op":"set","key":"other.\#(index)","value":"x","language":"de"}"#)
            others.append(other)
        }
        try waitUntil("the first set to wait for the folder's lock") {
            descriptorCount(of: daemon.pid, openOn: folder) > openBefore
        }
        let reader = try LineClient(socket: sandbox.socket)
        #expect(try reader.request(#"{"id":20,"op":"languages"}"#)["ok"] == true)
        try writer.readAvailable()
        #expect(writer.queuedLineCount == 0)

        try lock.release()
        var answers: [JSONValue] = []
        for _ in 0..<4 { answers.append(try writer.nextMessage(timeout: .seconds(20))) }
        #expect(answers.map { $0.int("id") } == [1, 2, 3, 4])
        #expect(answers.allSatisfy { $0["ok"] == true })
        // The get was answered after the first set was written, before the second.
        #expect(answers[1].string("value") != "Zwei")
        for other in others { #expect(try other.nextMessage(timeout: .seconds(20))["ok"] == true) }
        let table = try StringsFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: folder
            + "/Localizable.strings"))))
        #expect(table["greeting"] == "Zwei")
        #expect(try daemon.terminate() == 0)
    }

    @Test func pastTheDeadlineASetFailsBusyWithNothingWritten() throws {
        guard HeldFolderLock.executable != nil else { try Test.cancel("flock (util-linux) is not installed") }
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--edit-lock-timeout", "300ms"])
        let german = try sandbox.read("de.lproj/Localizable.strings")
        let lock = try HeldFolderLock(sandbox.bundle + "/de.lproj")
        let client = try LineClient(socket: sandbox.socket)
        let answer = try client.request(#"{"id":1,"op":"set","key":"greeting","value":"Servus","language":"de"}"#,
                                        timeout: .seconds(20))
        #expect(answer["ok"] == false)
        #expect(answer["error"]?.string("code") == "busy")
        #expect(answer["error"]?.string("message")?.contains("'de.lproj'") == true, "\(answer)")
        #expect(try sandbox.read("de.lproj/Localizable.strings") == german)
        let removal = try client.request(#"{"id":2,"op":"remove","key":"greeting","language":"de"}"#,
                                         timeout: .seconds(20))
        #expect(removal["error"]?.string("code") == "busy")
        #expect(try sandbox.read("de.lproj/Localizable.strings") == german)
        // Once the lock is free, the same request lands.
        try lock.release()
        #expect(try client.request(#"{"id":3,"op":"set","key":"greeting","value":"Servus","language":"de"}"#,
                                   timeout: .seconds(20))["ok"] == true)
        #expect(try daemon.terminate() == 0)
    }

    @Test func theDeadlineIsCheckedLikeTheOtherOptions() throws {
        for (value, message) in [("-1s", "negative"), ("2h", "from 0 to 1h"), ("soon", "such as 50ms")] {
            let run = try HotstringsProcess.run(["serve", "--edit-lock-timeout=" + value, "--socket", "/nonexistent"])
            #expect(run.code == 64, "\(value): \(run.stderr)")
            #expect(run.stderr.contains("--edit-lock-timeout"), "\(value): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(value): \(run.stderr)")
        }
        let help = try HotstringsProcess.run(["serve", "--help"])
        #expect(help.stdout.contains("--edit-lock-timeout"))
    }
}
