import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

@Suite(.needsHotstringsBinary)
struct FanOutTests {
    static let subscriberCount = 1_000

    @Test func aThousandSubscribersAllReceiveTheSameEvent() throws {
        // Each subscriber is a descriptor here and one in the daemon, which raises its own limit.
        let limit = ResourceLimits.raiseOpenFiles(to: 4 * Self.subscriberCount)
        try #require(limit >= 2 * Self.subscriberCount + 100, "RLIMIT_NOFILE is \(limit); raise the hard limit")

        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let subscribers = try (0..<Self.subscriberCount).map { _ in try LineClient(socket: sandbox.socket) }
        for (index, subscriber) in subscribers.enumerated() {
            try subscriber.send(#"{"id":\#(index),"op":"subscribe","snapshot":false}"#)
        }
        try waitForLines(subscribers, count: 1)
        var seq: Int64 = 0
        for (index, subscriber) in subscribers.enumerated() {
            let response = try JSONValue(parsing: try subscriber.nextLine())
            #expect(response.int("id") == Int64(index))
            seq = try #require(response.int("seq"))
        }
        let probe = try LineClient(socket: sandbox.socket)
        #expect(try probe.request(#"{"id":1,"op":"status"}"#).int("subscribers") == Int64(Self.subscriberCount))

        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        try waitForLines(subscribers, count: 1)
        let first = try subscribers[0].nextLine()
        let reload = try JSONValue(parsing: first)
        #expect(reload.int("seq") == seq + 1)
        #expect(changes(of: reload) == [germanEdit])
        var differing = 0
        for subscriber in subscribers.dropFirst() where try subscriber.nextLine() != first { differing += 1 }
        #expect(differing == 0, "every subscriber gets the same bytes")

        for subscriber in subscribers { subscriber.close() }
        let isDrained = try waitUntil { try probe.request(#"{"id":2,"op":"status"}"#).int("subscribers") == 0 }
        #expect(isDrained)
        #expect(try daemon.terminate() == 0)
    }
}
