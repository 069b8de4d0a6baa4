import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

@Suite(.needsHotstringsBinary)
struct ResilienceTests {
    /// Clients that misbehave in every way one after another: the daemon answers the next client each time,
    /// ends up with the descriptors it started with, and still stops cleanly.
    @Test func misbehavingClientsLeaveNoTraceAndTheDaemonStopsCleanly() throws {
        ResourceLimits.raiseOpenFiles(to: 8192)
        let sandbox = try Sandbox(extraFiles: ["en.lproj/Big.strings": bigTable])
        let daemon = try DaemonProcess.serving(sandbox)
        let probe = try LineClient(socket: sandbox.socket)
        var probeID = 0
        func probeAnswers() throws -> Bool {
            probeID += 1
            let response = try probe.request(#"{"id":\#(probeID),"op":"get","key":"welcome.title","language":"de"}"#)
            return response.int("id") == Int64(probeID) && response.string("value") == "Willkommen bei HotStrings"
        }
        #expect(try probeAnswers())
        let baseline = try daemon.openDescriptorCount()
        let baselineKinds = daemon.openDescriptorKinds()

        // Connects and never sends anything: costs a descriptor, blocks nothing.
        let silent = try LineClient(socket: sandbox.socket)
        #expect(try probeAnswers())

        // Asks for 300 KB answers and snapshots and hangs up after the first bytes of each.
        for index in 0..<20 {
            let client = try LineClient(socket: sandbox.socket)
            let op = index.isMultiple(of: 2)
                ? #"{"id":1,"op":"table","language":"en","table":"Big"}"#
                : #"{"id":1,"op":"subscribe","tables":["Big"]}"#
            try client.send(op)
            #expect(try client.readChunk() > 0)
            client.close()
        }
        #expect(try probeAnswers())

        // A subscriber that unsubscribes and one that never subscribed, while an event flows.
        let unsubscribed = try LineClient(socket: sandbox.socket)
        _ = try unsubscribed.request(#"{"id":1,"op":"subscribe","snapshot":false}"#)
        #expect(try unsubscribed.request(#"{"id":2,"op":"unsubscribe"}"#)["ok"] == true)
        try sandbox.save(try editedGerman(sandbox), to: "de.lproj/Localizable.strings")
        let added = #"{"id":0,"op":"get","key":"e2e.added","table":"Localizable","language":"de"}"#
        #expect(try waitUntil { try probe.request(added)["found"] == true })
        try unsubscribed.send(#"{"id":3,"op":"hello"}"#)
        #expect(try unsubscribed.nextMessage().int("id") == 3, "no reload after unsubscribe")
        unsubscribed.close()

        // Connects and disconnects in a loop: half at once, half after sending a request they never read.
        for index in 0..<2_000 {
            let client = try LineClient(socket: sandbox.socket)
            if index.isMultiple(of: 2) { try client.send(#"{"id":1,"op":"status"}"#) }
            client.close()
        }
        #expect(try probeAnswers())

        silent.close()
        let isBack = try waitUntil(.seconds(10)) { try daemon.openDescriptorCount() <= baseline }
        #expect(isBack, "the daemon holds \(daemon.openDescriptorKinds()), at the start \(baselineKinds)")
        #expect(try probe.request(#"{"id":"s","op":"status"}"#).int("connections") == 1)

        // One that asked for 300 KB and reads none of it must not hold up the shutdown past its grace.
        let stuck = try LineClient(socket: sandbox.socket)
        try stuck.send(#"{"id":1,"op":"table","language":"en","table":"Big"}"#)
        #expect(try stuck.readChunk() > 0)
        let stopping = ContinuousClock.now
        #expect(try daemon.terminate() == 0)
        #expect(ContinuousClock.now - stopping < .seconds(5))
        #expect(!FileManager.default.fileExists(atPath: sandbox.socket), "the socket file is removed on exit")
        #expect(try probe.readUntilClosed() != nil)
        #expect(daemon.log.contains("shutting down"))
    }

    /// A client that sends its requests and shuts down its writing side (`printf … | nc -N -U`) gets every
    /// answer, then end of file: 100 requests are more than the daemon takes in flight at once.
    @Test(arguments: [1, 3, 100])
    func aHalfClosedClientGetsItsAnswersThenEndOfFile(requests: Int) throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        let lines = (0..<requests).map { #"{"id":\#($0),"op":"get","key":"greeting","language":"fr"}"# }
        try client.send(lines.joined(separator: "\n"))
        client.shutdownWrite()
        let answers = try #require(try client.readUntilClosed(), "the daemon must close after answering")
        #expect(answers.count == requests)
        let ids = try answers.map { try JSONValue(parsing: $0).int("id") }
        #expect(ids == (0..<requests).map { Int64($0) })
        #expect(try daemon.terminate() == 0)
    }
}
