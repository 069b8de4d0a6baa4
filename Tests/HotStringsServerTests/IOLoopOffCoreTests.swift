@testable import HotStringsFront
import HotStringsTestSupport
import Testing

/// The I/O loop and requests the core hands to a worker (`ServiceOutput.offCore`: an edit waiting for a folder's
/// lock): they leave the core's backlog (4) to other clients, and their client hands on nothing more until the
/// answer. The test plays the core through `LoopHarness`.
struct IOLoopOffCoreTests {
    @Test func requestsWaitingForAWorkerLeaveTheCoreBacklogToOthers() throws {
        let harness = try LoopHarness()
        // Connected first: a client's first line needs room in the backlog too.
        let writers = try (0..<4).map { _ in try harness.connect() }
        let (reader, readerID) = try harness.connect()
        let others = try (0..<3).map { _ in try harness.connect() }
        for (index, writer) in writers.enumerated() {
            try writer.client.send("set \(index)")
            try harness.waitFor("set \(index)") { LoopHarness.requests(from: writer.id, in: $0) == ["set \(index)"] }
        }
        // The backlog is full: another client's request waits.
        try reader.send("get")
        try harness.settle()
        #expect(harness.requests(from: readerID).isEmpty)

        // The core hands the four sets to a worker: the get is handed on, and so is what else comes, but not a
        // waiting writer's next request.
        harness.loop.submit(writers.map { .offCore($0.id) })
        try harness.waitFor("the get") { LoopHarness.requests(from: readerID, in: $0) == ["get"] }
        try writers[0].client.send("get after set 0")
        harness.answer(readerID, line("answer get"))
        #expect(try reader.nextLine() == Array("answer get".utf8))
        try reader.send("get again")
        try harness.waitFor("the second get") { LoopHarness.requests(from: readerID, in: $0).count == 2 }
        try harness.settle()
        #expect(harness.requests(from: writers[0].id) == ["set 0"])

        // The set's answer: the writer's next request is handed on.
        harness.answer(writers[0].id, line("answer set 0"))
        #expect(try writers[0].client.nextLine() == Array("answer set 0".utf8))
        try harness.waitFor("the writer's next request") {
            LoopHarness.requests(from: writers[0].id, in: $0) == ["set 0", "get after set 0"]
        }

        // A waiting writer that goes away gives back nothing twice: with the writer's get and the reader's second
        // in the core, two more requests fill the backlog, and a third waits.
        writers[1].client.close()
        try harness.waitFor(.closed(writers[1].id))
        for (index, other) in others.enumerated() { try other.client.send("other \(index)") }
        try harness.waitFor("two of the others' requests") { reports in
            others.filter { !LoopHarness.requests(from: $0.id, in: reports).isEmpty }.count == 2
        }
        try harness.settle()
        #expect(others.filter { !harness.requests(from: $0.id).isEmpty }.count == 2)
    }
}
