import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

/// A table is the union of a folder's `T.strings` and `T.stringsdict`; changes of either kind are reported.
@Suite struct StringsdictTableTests {
    static let files = stringsdict(["files": ("%#@n@", "n", ["one": "%d file", "other": "%d files"])])
    static let filesEdited = stringsdict(["files": ("%#@n@", "n", ["one": "one file", "other": "%d files"])])

    func rule(_ text: String, _ key: String) throws -> LocalizedValue {
        .rule(try #require(try StringsdictFile.parse(text: text)[key]))
    }

    @Test func theStringsdictEntryWinsOverTheStringsOne() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            parsed("en", makeTable(["files": "%d file(s)", "title": "Files"])), try parsedRules("en", Self.files),
        ], isFullScan: true))
        let content = try #require(await store.content(tableID("en")))
        #expect(content.count == 2)
        #expect(content["title"] == .string("Files"))
        #expect(content["files"] == (try rule(Self.files, "files")))
        let lookup = await store.lookup("files", preferences: ["en"])
        #expect(lookup.rule == (try StringsdictFile.parse(text: Self.files))["files"])
        #expect(lookup.value == "%d files")
        #expect(await store.lookup("title", preferences: ["en"]).rule == nil)
        #expect(await store.languages() == [LanguageSummary(language: "en", tables: ["Localizable": 2])])
    }

    @Test func editingTheStringsdictReportsTheChangedRule() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            parsed("en", makeTable(["title": "Files"])), try parsedRules("en", Self.files),
        ], isFullScan: true))
        let events = await store.apply(ChangeBatch(updates: [try parsedRules("en", Self.filesEdited)]))
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.count == 1)
        #expect(changes.first?.file == "en.lproj/Localizable.stringsdict")
        #expect(changes.first?.kind == .updated)
        #expect(changes.first?.changed == [KeyValue(key: "files", value: try rule(Self.filesEdited, "files"))])
        #expect(changes.first?.added == [] && changes.first?.removed == [])
        #expect(await store.content(tableID("en"))?["title"] == .string("Files"))
    }

    @Test func removingTheStringsdictFallsBackToTheStringsValue() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            parsed("de", makeTable(["files": "%d Datei(en)"])),
            try parsedRules("de", stringsdict([
                "files": ("%#@n@", "n", ["one": "%d Datei", "other": "%d Dateien"]),
                "only": ("%#@n@", "n", ["other": "%d"]),
            ])),
        ], isFullScan: true))
        let gone = TableUpdate(id: tableID("de"), file: "de.lproj/Localizable.stringsdict", content: .removed)
        let events = await store.apply(ChangeBatch(updates: [gone]))
        guard case .reload(_, let changes) = events.first else { Issue.record("no reload: \(events)"); return }
        #expect(changes.first?.kind == .updated)
        #expect(changes.first?.changed == [KeyValue(key: "files", value: "%d Datei(en)")])
        #expect(changes.first?.removed == ["only"])
    }

    @Test func aBrokenStringsdictKeepsTheLastGoodRules() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [try parsedRules("en", Self.files)], isFullScan: true))
        let problem = FileProblem(file: "en.lproj/Localizable.stringsdict", line: 3, column: 7, message: "bad")
        let broken = TableUpdate(id: tableID("en"), file: problem.file, content: .failed(problem))
        let events = await store.apply(ChangeBatch(updates: [broken]))
        #expect(events == [.error(seq: 2, problem)])
        #expect(await store.content(tableID("en"))?["files"] == (try rule(Self.files, "files")))
    }

    @Test func aRuleReplacingAStringOfTheSameTextIsAChange() throws {
        let rules = try StringsdictFile.parse(text: stringsdict(["k": ("%#@n@", "n", ["other": "x"])]))
        let old = TableContent(strings: makeTable(["k": "x"]))
        let new = TableContent(strings: makeTable(["k": "x"]), rules: rules)
        let differences = new.differences(from: old)
        #expect(differences.changed.map(\.key) == ["k"] && differences.added.isEmpty && differences.removed.isEmpty)
        #expect(new.differences(from: new).changed.isEmpty)
    }

    @Test func anotherFolderOfTheSameLanguageIsNotMergedIn() async throws {
        let store = StringsStore(epoch: 1)
        _ = await store.apply(ChangeBatch(updates: [
            TableUpdate(id: tableID("de"), file: "German.lproj/Localizable.stringsdict",
                        content: .parsed(TableContent(rules: try StringsdictFile.parse(text: Self.files)))),
            parsed(file: "de.lproj/Localizable.strings", id: tableID("de"), makeTable(["a": "1"])),
        ], isFullScan: true))
        let content = try #require(await store.content(tableID("de")))
        #expect(content.rules.isEmpty && content["a"] == .string("1"))
    }
}
