import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

/// A table rewritten from `old` to `new` and the diff the reload must report (`nil`: no event).
struct RewriteCase: CustomTestStringConvertible, Sendable {
    let name: String
    let old: [(String, String)]
    let new: [(String, String)]
    let expected: (added: [KeyValue], changed: [KeyValue], removed: [String])?
    var testDescription: String { name }
}

@Suite struct ApplyTests {
    @Test func newFileIsCreatedWithKeysInSourceOrder() async {
        let store = StringsStore(epoch: 7)
        let events = await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["b": "2", "a": "1", "c": "3"]))]))
        let change = TableChange(language: "de", table: "Localizable", file: "de.lproj/Localizable.strings",
                                 kind: .created, added: pairs(["b": "2", "a": "1", "c": "3"]))
        #expect(events == [.reload(seq: 1, changes: [change])])
        #expect(await store.table(tableID("de")) == makeTable(["b": "2", "a": "1", "c": "3"]))
        #expect(await store.seq == 1)
    }

    static let rewrites: [RewriteCase] = [
        RewriteCase(name: "same content", old: [("a", "1"), ("b", "2")], new: [("a", "1"), ("b", "2")],
                    expected: nil),
        RewriteCase(name: "reordered keys only", old: [("a", "1"), ("b", "2")], new: [("b", "2"), ("a", "1")],
                    expected: nil),
        RewriteCase(name: "value changed", old: [("a", "1"), ("b", "2")], new: [("a", "1"), ("b", "two")],
                    expected: ([], [KeyValue(key: "b", value: "two")], [])),
        RewriteCase(name: "keys added in new source order", old: [("m", "1")],
                    new: [("z", "26"), ("m", "1"), ("a", "0")],
                    expected: ([KeyValue(key: "z", value: "26"), KeyValue(key: "a", value: "0")], [], [])),
        RewriteCase(name: "keys removed in old source order", old: [("c", "3"), ("a", "1"), ("b", "2")],
                    new: [("a", "1")], expected: ([], [], ["c", "b"])),
        RewriteCase(name: "all three at once", old: [("keep", "k"), ("edit", "old"), ("drop", "d")],
                    new: [("new", "n"), ("edit", "new"), ("keep", "k")],
                    expected: ([KeyValue(key: "new", value: "n")], [KeyValue(key: "edit", value: "new")], ["drop"])),
        RewriteCase(name: "same count, one key swapped for another", old: [("a", "1"), ("b", "2")],
                    new: [("a", "1"), ("c", "2")], expected: ([KeyValue(key: "c", value: "2")], [], ["b"])),
        RewriteCase(name: "value in another normalization form", old: [("k", "caf\u{E9}")],
                    new: [("k", "cafe\u{301}")], expected: ([], [KeyValue(key: "k", value: "cafe\u{301}")], [])),
        RewriteCase(name: "every key removed", old: [("a", "1")], new: [], expected: ([], [], ["a"])),
        RewriteCase(name: "empty to empty", old: [], new: [], expected: nil),
    ]

    @Test(arguments: rewrites)
    func rewriteReportsExactlyTheDiff(_ rewrite: RewriteCase) async {
        let store = await makeStore([("fr", "Localizable", makeTable(rewrite.old))])
        let events = await store.apply(ChangeBatch(updates: [parsed("fr", makeTable(rewrite.new))]))
        if let expected = rewrite.expected {
            let change = TableChange(language: "fr", table: "Localizable", file: path("fr"), kind: .updated,
                                     added: expected.added, changed: expected.changed, removed: expected.removed)
            #expect(events == [.reload(seq: 2, changes: [change])])
        } else {
            #expect(events.isEmpty)
            #expect(await store.seq == 1)
        }
        #expect(await store.table(tableID("fr")) == makeTable(rewrite.new))
    }

    @Test func commentOnlyEditUpdatesTheTableWithoutAnEvent() async {
        let store = await makeStore([("en", "Localizable", makeTable(["a": "1"]))])
        let commented = StringsTable([StringsEntry(key: "a", value: "1", comment: "the first letter")])
        #expect(await store.apply(ChangeBatch(updates: [parsed("en", commented)])).isEmpty)
        #expect(await store.table(tableID("en"))?.entry(forKey: "a")?.comment == "the first letter")
    }

    @Test func removedFileIsDeletedWithAllItsKeys() async {
        let store = await makeStore([("de", "Localizable", makeTable(["x": "1", "a": "2"]))])
        let events = await store.apply(ChangeBatch(updates: [removed("de")]))
        let change = TableChange(language: "de", table: "Localizable", file: path("de"), kind: .deleted,
                                 removed: ["x", "a"])
        #expect(events == [.reload(seq: 2, changes: [change])])
        #expect(await store.table(tableID("de")) == nil)
        #expect(await store.snapshot().tables.isEmpty)
    }

    @Test func removingAnUnknownFileChangesNothing() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "1"]))])
        #expect(await store.apply(ChangeBatch(updates: [removed("fr")])).isEmpty)
        #expect(await store.seq == 1)
    }

    @Test func failureKeepsTheLastGoodTable() async {
        let good = makeTable(["a": "1"])
        let store = await makeStore([("de", "Localizable", good)])
        let failure = failed("de", line: 3, message: "missing ';'")
        let events = await store.apply(ChangeBatch(updates: [failure]))
        let problem = FileProblem(file: path("de"), line: 3, column: 1, message: "missing ';'")
        #expect(events == [.error(seq: 2, problem)])
        #expect(await store.table(tableID("de")) == good)

        // A rescan that still fails to parse the file does not delete its table either.
        let rescan = await store.apply(ChangeBatch(updates: [failure], isFullScan: true))
        #expect(rescan == [.error(seq: 3, problem)])
        #expect(await store.table(tableID("de")) == good)

        // The next good parse is diffed against the last good table.
        let fixed = await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["a": "1", "b": "2"]))]))
        let change = TableChange(language: "de", table: "Localizable", file: path("de"), kind: .updated,
                                 added: pairs(["b": "2"]))
        #expect(fixed == [.reload(seq: 4, changes: [change])])
    }

    @Test func failureOfANewFileServesNothing() async {
        let store = StringsStore(epoch: 1)
        let events = await store.apply(ChangeBatch(updates: [failed("de")]))
        #expect(events.count == 1)
        #expect(events.first?.seq == 1)
        #expect(await store.table(tableID("de")) == nil)
        #expect(await store.languages().isEmpty)
    }

    @Test func fullScanDeletesTablesItDoesNotMention() async {
        let store = await makeStore([
            ("de", "Localizable", makeTable(["a": "1"])),
            ("fr", "Localizable", makeTable(["a": "un"])),
            ("fr", "Other", makeTable(["o": "autre"])),
        ])
        let events = await store.apply(ChangeBatch(
            updates: [parsed("de", makeTable(["a": "1"])), parsed("fr", makeTable(["a": "une"]))],
            isFullScan: true
        ))
        let changes = [
            TableChange(language: "fr", table: "Localizable", file: path("fr"), kind: .updated,
                        changed: pairs(["a": "une"])),
            TableChange(language: "fr", table: "Other", file: path("fr", "Other"), kind: .deleted, removed: ["o"]),
        ]
        #expect(events == [.reload(seq: 2, changes: changes)])
        #expect(await store.snapshot().tables.map(\.id) == [tableID("de"), tableID("fr")])
    }

    @Test func emptyFullScanDeletesEverything() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "1"])), ("en", "A", makeTable([:]))])
        let events = await store.apply(ChangeBatch(updates: [], isFullScan: true))
        guard case .reload(_, let changes) = events.first else {
            Issue.record("expected a reload, got \(events)")
            return
        }
        #expect(changes.map(\.kind) == [.deleted, .deleted])
        #expect(await store.snapshot().tables.isEmpty)
    }

    @Test func incrementalBatchKeepsTablesItDoesNotMention() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "1"])), ("fr", "A", makeTable(["b": "2"]))])
        _ = await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["a": "2"]))]))
        #expect(await store.table(tableID("fr", "A")) == makeTable(["b": "2"]))
    }

    @Test func oneBatchIsOneReloadSortedByTable() async {
        let store = StringsStore(epoch: 1)
        let events = await store.apply(ChangeBatch(updates: [
            parsed("fr", makeTable(["a": "1"])),
            parsed("de", makeTable(["a": "1"]), table: "Z"),
            parsed("de", makeTable(["a": "1"]), table: "A"),
        ]))
        guard case .reload(let seq, let changes) = events.first, events.count == 1 else {
            Issue.record("expected one reload, got \(events)")
            return
        }
        #expect(seq == 1)
        #expect(changes.map { "\($0.language)/\($0.table)" } == ["de/A", "de/Z", "fr/Localizable"])
    }

    @Test func laterUpdateOfTheSameFileInABatchWins() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "1"]))])
        let events = await store.apply(ChangeBatch(updates: [
            parsed("de", makeTable(["a": "2"])), removed("de"), parsed("de", makeTable(["a": "3", "b": "4"])),
        ]))
        let change = TableChange(language: "de", table: "Localizable", file: path("de"), kind: .updated,
                                 added: pairs(["b": "4"]), changed: pairs(["a": "3"]))
        #expect(events == [.reload(seq: 2, changes: [change])])
    }

    @Test func fileCreatedAndRemovedInOneBatchIsNoEvent() async {
        let store = StringsStore(epoch: 1)
        #expect(await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["a": "1"])), removed("de")])).isEmpty)
        #expect(await store.seq == 0)
    }

    @Test func seqCountsEveryEventInOrder() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "1"]))])
        let events = await store.apply(ChangeBatch(
            updates: [failed("fr"), parsed("de", makeTable(["a": "2"])), failed("it")],
            isFullScan: true, resync: .overflow
        ))
        #expect(events.map(\.seq) == [2, 3, 4, 5])
        guard events.count == 4 else { return }
        #expect(events[0] == .resync(seq: 2, reason: .overflow))
        if case .reload = events[1] {} else { Issue.record("expected the reload second, got \(events[1])") }
        #expect(events[2] == .error(seq: 4, FileProblem(file: path("fr"), line: 1, column: 1, message: "bad")))
        #expect(events[3] == .error(seq: 5, FileProblem(file: path("it"), line: 1, column: 1, message: "bad")))
        #expect(await store.seq == 5)
        #expect(await store.snapshot().seq == 5)
    }

    @Test(arguments: ResyncReason.allCases)
    func resyncIsReportedEvenWhenNothingChanged(_ reason: ResyncReason) async {
        let table = makeTable(["a": "1"])
        let store = await makeStore([("de", "Localizable", table)])
        let events = await store.apply(ChangeBatch(updates: [], resync: reason))
        #expect(events == [.resync(seq: 2, reason: reason)])
        #expect(await store.table(tableID("de")) == table)
    }

    @Test func resyncReasonsHaveTheirWireNames() {
        #expect(ResyncReason.allCases.map(\.rawValue) == ["overflow", "root-removed", "root-restored", "requested", "slow-client"])
    }

    @Test func epochIsRandomBelowTwoToTheFiftyThird() {
        let epochs = (0..<20).map { _ in StringsStore().epoch }
        #expect(epochs.allSatisfy { $0 > 0 && $0 < 1 << 53 })
        #expect(Set(epochs).count > 1)
        #expect(StringsStore(epoch: 99).epoch == 99)
    }
}

@Suite struct ReportTests {
    @Test func reportedProblemsAreNumberedErrorsThatServeNothingDifferently() async {
        let table = makeTable(["a": "1"])
        let store = await makeStore([("de", "Localizable", table)])
        let problems = [FileProblem(file: "x.lproj", message: "cannot watch"), FileProblem(file: "y", message: "z")]
        #expect(await store.report(problems) == [.error(seq: 2, problems[0]), .error(seq: 3, problems[1])])
        #expect(await store.report([]).isEmpty)
        #expect(await store.seq == 3)
        #expect(await store.table(tableID("de")) == table)
    }
}

@Suite struct ProblemTests {
    static let descriptions: [(FileProblem, String)] = [
        (FileProblem(file: "de.lproj/A.strings", line: 12, column: 7, message: "missing ';'"),
         "de.lproj/A.strings:12:7: error: missing ';'"),
        (FileProblem(file: "de.lproj/A.strings", line: 3, message: "m"), "de.lproj/A.strings:3: error: m"),
        (FileProblem(file: "de.lproj", message: "permission denied"), "de.lproj: error: permission denied"),
    ]

    @Test(arguments: descriptions)
    func describesItselfLikeACompiler(problem: FileProblem, expected: String) {
        #expect(problem.description == expected)
    }

    @Test func takesLineAndColumnFromAParseError() {
        let problem = FileProblem(file: "f.strings", ParseError("unterminated quoted string", line: 4, column: 9))
        #expect(problem == FileProblem(file: "f.strings", line: 4, column: 9, message: "unterminated quoted string"))
    }

    @Test func unsupportedLanguageListsTheAlternatives() {
        let error = StoreError.unsupportedLanguage("xx", available: ["de", "fr"])
        #expect(error.description == "unsupported language 'xx'; available: de, fr")
    }
}
