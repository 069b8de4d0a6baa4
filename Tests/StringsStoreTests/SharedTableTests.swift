import BundleChanges
import StringsFormat
import Testing
@testable import StringsStore

/// Odd bundles where two files hold one table (`German.lproj` and `de.lproj` are both `de`).
@Suite struct SharedTableTests {
    let german = parsed(file: path("German"), id: tableID("de"), makeTable(["a": "G"]))
    let germanGone = TableUpdate(id: tableID("de"), file: path("German"), content: .removed)

    @Test func theMostRecentlyParsedFileIsServed() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "d"]))])
        let events = await store.apply(ChangeBatch(updates: [german]))
        let change = TableChange(language: "de", table: "Localizable", file: path("German"), kind: .updated,
                                 changed: pairs(["a": "G"]))
        #expect(events == [.reload(seq: 2, changes: [change])])
        #expect(await store.snapshot().tables.map(\.file) == [path("German")])

        // Parsing de.lproj again, even unchanged, makes it the most recent again.
        let back = await store.apply(ChangeBatch(updates: [parsed("de", makeTable(["a": "d"]))]))
        let revert = TableChange(language: "de", table: "Localizable", file: path("de"), kind: .updated,
                                 changed: pairs(["a": "d"]))
        #expect(back == [.reload(seq: 3, changes: [revert])])
    }

    @Test func removingTheServedFileFallsBackToTheOther() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "d", "only-de": "x"]))])
        _ = await store.apply(ChangeBatch(updates: [german]))
        let events = await store.apply(ChangeBatch(updates: [germanGone]))
        let change = TableChange(language: "de", table: "Localizable", file: path("de"), kind: .updated,
                                 added: pairs(["only-de": "x"]), changed: pairs(["a": "d"]))
        #expect(events == [.reload(seq: 3, changes: [change])])

        let last = await store.apply(ChangeBatch(updates: [removed("de")]))
        let deletion = TableChange(language: "de", table: "Localizable", file: path("de"), kind: .deleted,
                                   removed: ["a", "only-de"])
        #expect(last == [.reload(seq: 4, changes: [deletion])])
    }

    @Test func removingTheFileNotServedIsNoEvent() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "d"]))])
        _ = await store.apply(ChangeBatch(updates: [german]))
        #expect(await store.apply(ChangeBatch(updates: [removed("de")])).isEmpty)
        #expect(await store.table(tableID("de")) == makeTable(["a": "G"]))
    }

    @Test func aFailureDoesNotChangeWhichFileIsServed() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "d"]))])
        _ = await store.apply(ChangeBatch(updates: [german]))
        let events = await store.apply(ChangeBatch(updates: [failed("de")]))
        #expect(events.count == 1)
        #expect(await store.table(tableID("de")) == makeTable(["a": "G"]))
    }

    @Test func aFileThatNowHoldsAnotherTableLeavesTheOldOne() async {
        let store = await makeStore([("de", "Localizable", makeTable(["a": "1"]))])
        let moved = parsed(file: path("de"), id: tableID("fr"), makeTable(["a": "1"]))
        let events = await store.apply(ChangeBatch(updates: [moved]))
        let changes = [
            TableChange(language: "de", table: "Localizable", file: path("de"), kind: .deleted, removed: ["a"]),
            TableChange(language: "fr", table: "Localizable", file: path("de"), kind: .created,
                        added: pairs(["a": "1"])),
        ]
        #expect(events == [.reload(seq: 2, changes: changes)])
        #expect(await store.snapshot().tables.map(\.id) == [tableID("fr")])
    }
}
