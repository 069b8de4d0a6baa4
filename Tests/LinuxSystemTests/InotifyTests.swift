import HotStringsTestSupport
import LinuxSystem
import Testing

/// An inotify instance and a poller waiting on it, collecting events until a condition holds or 5 s pass.
final class EventCollector {
    let inotify: Inotify
    let poller: Poller
    private(set) var events: [InotifyEvent] = []

    init() throws {
        inotify = try Inotify()
        poller = try Poller()
        try poller.add(inotify.fileDescriptor)
    }

    /// Reads events until `isComplete` holds for all collected so far, or the deadline passes; returns them.
    @discardableResult
    func collect(until isComplete: ([InotifyEvent]) -> Bool) throws -> [InotifyEvent] {
        let deadline = ContinuousClock.now + .seconds(5)
        while !isComplete(events) && ContinuousClock.now < deadline {
            _ = try poller.wait(timeout: deadline - .now)
            events += try inotify.readEvents()
        }
        return events
    }

    /// Collects until an event with `mask` (and `name`, if given) arrived.
    @discardableResult
    func collect(untilSeeing mask: InotifyMask, name: String? = nil) throws -> [InotifyEvent] {
        try collect { events in
            events.contains { $0.mask.contains(mask) && (name == nil || $0.name == name) }
        }
    }
}

@Suite(.serialized) struct InotifyTests {
    static let directoryMask: InotifyMask = [
        .create, .closeWrite, .movedFrom, .movedTo, .delete, .deleteSelf, .onlyDirectory, .excludeUnlinked,
    ]

    @Test func reportsCreateCloseRenameAndDeleteInAWatchedDirectory() throws {
        try withTemporaryDirectory { directory in
            let collector = try EventCollector()
            let watch = try collector.inotify.addWatch(directory, mask: Self.directoryMask)
            #expect(watch >= 1)

            try FileSystem.writeFile(Array("\"a\" = \"b\";".utf8), toPath: "\(directory)/new.strings")
            try FileSystem.rename("\(directory)/new.strings", to: "\(directory)/Localizable.strings")
            try FileSystem.removeFile(atPath: "\(directory)/Localizable.strings")
            try FileSystem.makeDirectory(atPath: "\(directory)/de.lproj")

            let events = try collector.collect(untilSeeing: .create, name: "de.lproj")
            let summary = events.map { "\($0.mask) \($0.name)" }
            #expect(summary == [
                "CREATE new.strings", "CLOSE_WRITE new.strings", "MOVED_FROM new.strings",
                "MOVED_TO Localizable.strings", "DELETE Localizable.strings", "CREATE|ISDIR de.lproj",
            ])
            #expect(events.allSatisfy { $0.watch == watch })
            let cookies = events.filter { !$0.mask.isDisjoint(with: .move) }.map(\.cookie)
            #expect(cookies.count == 2 && cookies[0] != 0 && cookies[0] == cookies[1])
        }
    }

    @Test func removingAWatchQueuesIgnored() throws {
        try withTemporaryDirectory { directory in
            let collector = try EventCollector()
            let watch = try collector.inotify.addWatch(directory, mask: Self.directoryMask)
            collector.inotify.removeWatch(watch)
            let events = try collector.collect(untilSeeing: .ignored)
            #expect(events == [InotifyEvent(watch: watch, mask: .ignored)])
            // Removing it again is harmless (the kernel answers EINVAL, which is ignored).
            collector.inotify.removeWatch(watch)
        }
    }

    @Test func deletingTheWatchedDirectoryReportsDeleteSelfThenIgnored() throws {
        let directory = try FileSystem.makeTemporaryDirectory(prefix: "linux-system-tests")
        defer { try? FileSystem.removeRecursively(atPath: directory) }
        let collector = try EventCollector()
        let watch = try collector.inotify.addWatch(directory, mask: Self.directoryMask)
        try FileSystem.removeDirectory(atPath: directory)
        let events = try collector.collect(untilSeeing: .ignored)
        #expect(events == [InotifyEvent(watch: watch, mask: .deleteSelf), InotifyEvent(watch: watch, mask: .ignored)])
    }

    @Test func watchingAMissingPathFailsWithENOENTAndThePath() throws {
        try withTemporaryDirectory { directory in
            let inotify = try Inotify()
            let missing = "\(directory)/missing.lproj"
            let error = #expect(throws: SystemError.self) {
                try inotify.addWatch(missing, mask: Self.directoryMask)
            }
            #expect(error?.errno == .noSuchFileOrDirectory)
            #expect(error?.operation == "inotify_add_watch")
            #expect(error?.path == missing)
            #expect(error?.description == "inotify_add_watch(\(missing)): No such file or directory (ENOENT)")
        }
    }

    @Test func watchingAFileWithOnlyDirectoryFailsWithENOTDIR() throws {
        try withTemporaryDirectory { directory in
            let inotify = try Inotify()
            let file = "\(directory)/a.strings"
            try FileSystem.writeFile([], toPath: file)
            let error = #expect(throws: SystemError.self) {
                try inotify.addWatch(file, mask: Self.directoryMask)
            }
            #expect(error?.errno == .notDirectory)
        }
    }

    @Test func readingWithNothingQueuedReturnsNoEvents() throws {
        let inotify = try Inotify()
        #expect(try inotify.readEvents().isEmpty)
    }

    @Test func aClosedInstanceFailsWithEBADF() throws {
        let inotify = try Inotify()
        inotify.close()
        #expect(inotify.fileDescriptor == -1)
        let error = #expect(throws: SystemError.self) { try inotify.readEvents() }
        #expect(error?.errno == .badFileDescriptor)
        inotify.close()
    }

    @Test func drainsMoreThanOneBufferfulInOneCall() throws {
        try withTemporaryDirectory { directory in
            let collector = try EventCollector()
            _ = try collector.inotify.addWatch(directory, mask: [.create, .onlyDirectory])
            // Each CREATE record here is 16 + 48 bytes, so 1,200 of them need two 64 KiB reads.
            let stem = String(repeating: "n", count: 40)
            for index in 0..<1_200 {
                try FileSystem.writeFile([], toPath: "\(directory)/\(stem)\(index)")
            }
            _ = try collector.poller.wait(timeout: .seconds(5))
            let events = try collector.inotify.readEvents()
            #expect(events.count == 1_200)
            #expect(events.last?.name == "\(stem)1199")
        }
    }
}
