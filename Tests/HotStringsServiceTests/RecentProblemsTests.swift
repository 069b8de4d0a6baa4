import HotStringsProtocol
import HotStringsService
import StringsFormat
import StringsStore
import Testing

struct RecentProblemsTests {
    @Test func theNewestTenAreKeptOldestFirst() {
        var recent = RecentProblems()
        for index in 1...13 { recent.append(FileProblem(file: "\(index).strings", message: "broken")) }
        #expect(recent.problems.map(\.file) == (4...13).map { "\($0).strings" })
    }

    @Test func onlyErrorEventsAreRecorded() {
        var recent = RecentProblems()
        let problem = FileProblem(file: "de.lproj/A.strings", line: 3, column: 9, message: "expected ';'")
        recent.record([.language(seq: 1, language: LanguageTag("de"), previous: nil), .error(seq: 2, problem)])
        #expect(recent.problems == [problem])
    }

    @Test func theStatusArrayHasFileLineColumnAndMessage() throws {
        var recent = RecentProblems()
        recent.append(FileProblem(file: "de.lproj/A.strings", line: 3, column: 9, message: "expected ';'"))
        recent.append(FileProblem(file: "x.lproj", message: "not a language folder name"))
        var status = StatusAnswer(root: "/b", isRootPresent: true, watchedDirectories: 1, files: 1, tables: 1,
                                  subscribers: 0, connections: 0, lastErrors: recent.problems, uptime: 1,
                                  position: StreamPosition(epoch: 1, seq: 1))
        status.webURL = nil
        let entries = try #require(try ServiceFixture.members(of: .status(status))["lastErrors"]?.arrayValue)
        #expect(entries.count == 2)
        #expect(entries[0]["file"]?.stringValue == "de.lproj/A.strings")
        #expect(entries[0]["line"] == .integer(3))
        #expect(entries[0]["column"] == .integer(9))
        #expect(entries[1]["line"] == .null)
        #expect(entries[1]["message"]?.stringValue == "not a language folder name")
    }
}
