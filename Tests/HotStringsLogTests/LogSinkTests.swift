import HotStringsLog
import StringsFormat
import Synchronization
import Testing

/// `LogSink`: what reaches a handler, and the standard-error line the daemon has always written.
struct LogSinkTests {
    /// A sink at `minimumLevel` collecting what it is handed.
    private final class Collector: Sendable {
        private let state = Mutex<[LogSink.Record]>([])
        var records: [LogSink.Record] { state.withLock { $0 } }

        func sink(_ minimumLevel: LogSink.Level) -> LogSink {
            LogSink(minimumLevel: minimumLevel) { record in self.state.withLock { $0.append(record) } }
        }
    }

    @Test(arguments: LogSink.Level.allCases)
    func recordsBelowTheMinimumLevelAreNotMadeAtAll(_ minimumLevel: LogSink.Level) {
        let collector = Collector()
        let sink = collector.sink(minimumLevel)
        let built = Mutex<[LogSink.Level]>([])
        for level in LogSink.Level.allCases {
            sink.log(level, { built.withLock { $0.append(level) }; return "\(level) message" }(),
                     metadata: ["level": "\(level)"])
        }
        let expected = LogSink.Level.allCases.filter { $0 >= minimumLevel }
        #expect(collector.records.map(\.level) == expected)
        #expect(collector.records.map(\.message) == expected.map { "\($0) message" })
        #expect(collector.records.map { $0.metadata["level"] } == expected.map { "\($0)" })
        #expect(built.withLock { $0 } == expected, "a message below the level is never built")
    }

    @Test func theLevelMethodsLogAtTheirLevel() {
        let collector = Collector()
        let sink = collector.sink(.debug)
        sink.debug("d")
        sink.info("i")
        sink.warning("w", metadata: ["client": "7"])
        sink.error("e")
        #expect(collector.records.map(\.level) == [.debug, .info, .warning, .error])
        #expect(collector.records.map(\.message) == ["d", "i", "w", "e"])
        #expect(collector.records[2].metadata == ["client": "7"])
    }

    @Test func aMessageOrAValueFromOutsideCannotForgeALineOrDriveATerminal() throws {
        let collector = Collector()
        let sink = collector.sink(.info)
        let forged = "de.lproj/Evil\nhotstrings: info: FORGED\u{1B}[2J.strings"
        sink.warning(forged, metadata: ["file": forged])
        let record = try #require(collector.records.first)
        #expect(record.message == #"de.lproj/Evil\nhotstrings: info: FORGED\u{1B}[2J.strings"#)
        #expect(record.metadata["file"] == record.message)
        // Backslashes stay: messages join parts escaped already, which must not be escaped twice.
        sink.warning(#"a\nb"#)
        #expect(collector.records.last?.message == #"a\nb"#)
    }

    @Test func theStandardErrorLineIsTheDaemonsLine() {
        let record = LogSink.Record(level: .warning, message: "web: refused a request (400): a malformed request line",
                                    metadata: ["status": "400"])
        #expect(LogSink.standardErrorLine(record)
            == "hotstrings: warning: web: refused a request (400): a malformed request line\n")
        #expect(LogSink.Level.allCases.map(\.description) == ["debug", "info", "warning", "error"])
    }

    @Test func theDiscardingSinkBuildsNothing() {
        let built = Mutex(false)
        LogSink.discarding.error({ built.withLock { $0 = true }; return "lost" }())
        #expect(!built.withLock { $0 })
    }

    @Test func aFileProblemsPlaceIsItsMetadata() {
        let problem = FileProblem(file: "de.lproj/Localizable.strings", line: 3, column: 9, message: "expected '='")
        #expect(problem.logMetadata == ["file": "de.lproj/Localizable.strings", "line": "3", "column": "9"])
        #expect(FileProblem(file: "fr.lproj", message: "cannot watch").logMetadata == ["file": "fr.lproj"])
    }
}
