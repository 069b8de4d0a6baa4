import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import Testing

/// A table with one value of `size` bytes made of `letter`: each save of it is an event of about that size.
func blob(_ letter: Character, size: Int = 150_000) -> String {
    "\"blob\" = \"\(String(repeating: letter, count: size))\";\n"
}

@Suite(.needsHotstringsBinary)
struct SlowClientTests {
    /// A subscriber that stops reading loses its backlog for `resync` (`slow-client`) and a fresh snapshot,
    /// while the others get every event on time.
    @Test func aSubscriberThatNeverReadsIsResynchronizedWithoutSlowingTheOthers() throws {
        let sandbox = try Sandbox(extraFiles: ["en.lproj/Blob.strings": blob("a")])
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--client-buffer", "4096"])
        let fast = try LineClient(socket: sandbox.socket)
        let slow = try LineClient(socket: sandbox.socket)
        let subscribe = #"{"id":1,"op":"subscribe","snapshot":false,"tables":["Blob"]}"#
        let seq = try #require(try fast.request(subscribe).int("seq"))
        _ = try slow.request(subscribe)

        // Five events of 150 KB: more than the socket buffer and the 4 KiB outbox hold for the slow one.
        let letters: [Character] = ["b", "c", "d", "e", "f"]
        for (index, letter) in letters.enumerated() {
            try sandbox.save(blob(letter), to: "en.lproj/Blob.strings")
            let reload = try fast.nextMessage()
            #expect(reload.int("seq") == seq + Int64(index) + 1)
            #expect(changes(of: reload).first?.changed["blob"]?.first == letter)
        }
        let status = try LineClient(socket: sandbox.socket).request(#"{"id":2,"op":"status"}"#)
        #expect(status.int("subscribers") == 2, "the slow subscriber is still connected: \(status)")

        // Now it reads: whole lines it was sent before falling behind, then resync, then a snapshot of now.
        let (resync, before) = try slow.nextEvent("resync")
        #expect(resync.string("reason") == "slow-client")
        #expect(before.count < letters.count, "some events were dropped")
        #expect(before.allSatisfy { $0.string("event") == "reload" })
        let snapshot = try slow.nextMessage()
        #expect(snapshot.string("event") == "snapshot")
        #expect(snapshot.int("seq") == seq + Int64(letters.count))
        let entries = snapshot["tables"]?.arrayValue?.first?["entries"]
        #expect(entries?.string("blob")?.first == letters.last)
        #expect(tables(of: snapshot) == ["en/Blob"])

        // Caught up, it is an ordinary subscriber again.
        try sandbox.save(blob("g", size: 10), to: "en.lproj/Blob.strings")
        for client in [fast, slow] {
            let reload = try client.nextMessage()
            #expect(reload.int("seq") == seq + Int64(letters.count) + 1)
            #expect(changes(of: reload).first?.changed == ["blob": "gggggggggg"])
        }
        #expect(try daemon.terminate() == 0)
    }

    /// A client that pipelines requests and never reads the answers is no longer read once its answers
    /// pass the buffer cap, so they cannot pile up in the daemon; everyone else is served meanwhile.
    @Test func aClientThatSendsRequestsButNeverReadsIsPausedNotBuffered() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--client-buffer", "4096"])
        let hog = try LineClient(socket: sandbox.socket)
        // 4 KB requests for 1 KB answers: a daemon that reads on takes them as fast as it answers, one
        // that pushes back fills the socket buffers (a few hundred requests) and then takes no more.
        let padding = String(repeating: "p", count: 4000)
        let request = Array(#"{"id":1,"op":"table","language":"de","pad":"\#(padding)"}"#.utf8) + [0x0A]
        var sent = 0
        let limit = 3_000
        while sent < limit {
            do {
                try hog.send(bytes: request, timeout: .seconds(1))
            } catch is ClientError {
                break  // Nothing taken for a second: the daemon stopped reading this client.
            }
            sent += 1
        }
        #expect(sent < limit, "the daemon kept reading requests whose answers were never read")

        let other = try LineClient(socket: sandbox.socket)
        #expect(try other.request(#"{"id":2,"op":"get","key":"greeting","language":"de"}"#)["found"] == true)
        // Once the hog reads, it gets every answer it was owed, in order, and may send again.
        var answered = 0
        while answered < sent {
            let response = try hog.nextMessage()
            #expect(response.string("language") == "de")
            answered += 1
        }
        #expect(try hog.request(#"{"id":"last","op":"hello"}"#)["id"] == "last")
        #expect(try daemon.terminate() == 0)
    }

    /// Answers a subscriber asked for are not part of its event backlog: an event that arrives while three
    /// 300 KB answers wait to be read neither drops them nor counts them against the buffer cap.
    @Test func anEventNeverDropsAnswersTheSubscriberIsWaitingFor() throws {
        let sandbox = try Sandbox(extraFiles: ["en.lproj/Big.strings": bigTable])
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--client-buffer", "4096"])
        let subscriber = try LineClient(socket: sandbox.socket)
        let seq = try #require(try subscriber.request(#"{"id":0,"op":"subscribe","snapshot":false}"#).int("seq"))
        for id in 1...3 { try subscriber.send(#"{"id":\#(id),"op":"table","language":"en","table":"Big"}"#) }
        // The status answer of another client comes after the three tables were answered (one core, in order).
        let probe = try LineClient(socket: sandbox.socket)
        _ = try probe.request(#"{"id":1,"op":"status"}"#)
        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        #expect(try waitUntil { try probe.request(#"{"id":2,"op":"hello"}"#).int("seq") == seq + 1 })

        var answers: [Int64] = []
        var events: [String] = []
        while answers.count < 3 || events.isEmpty {
            let message = try subscriber.nextMessage()
            if let event = message.string("event") {
                events.append(event)
            } else {
                answers.append(message.int("id") ?? -1)
            }
        }
        #expect(answers == [1, 2, 3])
        #expect(events == ["reload"], "no resync: the answers are not a backlog")
        #expect(try daemon.terminate() == 0)
    }
}
