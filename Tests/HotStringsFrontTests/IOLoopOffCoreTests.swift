@testable import HotStringsFront
import Testing

/// The I/O loop and requests the core hands to a worker (`ServiceOutput.offCore`: an edit waiting for a folder's
/// lock): they leave the core's backlog (4) to other clients, and their client hands on nothing more until the
/// answer. The test plays the core through `LoopHarness`.
struct IOLoopOffCoreTests {
    @Test func requestsWaitingForAWorkerLeaveTheCoreBacklogToOthers() throws {
        let harness = try LoopHarness()
        let writers = try (0..<4).map { _ in try #require(harness.connect()) }
        let reader = try #require(harness.connect())
        let others = try (0..<3).map { _ in try #require(harness.connect()) }
        for (index, writer) in writers.enumerated() {
            harness.send(writer, "set \(index)")
            harness.settle()
            #expect(harness.requests(from: writer.id) == ["set \(index)"])
        }
        // The backlog is full: another client's request waits.
        harness.send(reader, "get")
        harness.settle()
        #expect(harness.requests(from: reader.id).isEmpty)

        // The core hands the four sets to a worker: the get is handed on, and so is what else comes, but not a
        // waiting writer's next request.
        harness.offCore(writers.map(\.id))
        harness.send(writers[0], "get after set 0")
        harness.settle()
        #expect(harness.requests(from: reader.id) == ["get"])
        harness.answer(reader.id, line("answer get"))
        harness.send(reader, "get again")
        harness.settle()
        #expect(harness.lines(reader) == ["answer get"])
        #expect(harness.requests(from: reader.id) == ["get", "get again"])
        #expect(harness.requests(from: writers[0].id) == ["set 0"])

        // The set's answer: the writer's next request is handed on.
        harness.answer(writers[0].id, line("answer set 0"))
        harness.settle()
        #expect(harness.lines(writers[0]) == ["answer set 0"])
        #expect(harness.requests(from: writers[0].id) == ["set 0", "get after set 0"])

        // A waiting writer that goes away gives back nothing twice: with the writer's get and the reader's second in
        // the core, two more requests fill the backlog, and a third waits.
        harness.io.closeClient(writers[1].fd)
        harness.settle()
        #expect(harness.hasReported(.closed(writers[1].id)))
        for (index, other) in others.enumerated() { harness.send(other, "other \(index)") }
        harness.settle()
        #expect(others.filter { !harness.requests(from: $0.id).isEmpty }.count == 2)
        #expect(harness.state.coreInFlight == 4)
    }
}
