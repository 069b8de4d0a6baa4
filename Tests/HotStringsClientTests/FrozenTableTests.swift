import Testing
@testable import HotStringsClient

/// `FrozenTable` answers exactly what the dictionary it was made from holds.
struct FrozenTableTests {
    static let entries: [String: String] = {
        var entries: [String: String] = [
            "": "the empty key",
            "a": "",
            "short": "kurz",
            "exactly8": "acht Bytes",
            "exactly16bytes!!": "sechzehn",
            "grüße.überschrift": "Grüße, 世界 👋🏽",
            "key.with.a.rather.long.name.that.spans.several.words": String(repeating: "lang ", count: 100),
        ]
        for index in 0..<5_000 { entries["generated.key.\(index)"] = "Wert \(index)" }
        return entries
    }()

    @Test func everyKeyGivesItsValue() {
        let table = FrozenTable(Self.entries)
        #expect(table.count == Self.entries.count)
        var wrong: [String] = []
        for (key, value) in Self.entries {
            let found = withUTF8Bytes(of: key) { table.value(forKeyBytes: $0) }
            if found != value { wrong.append(key) }
        }
        #expect(wrong.isEmpty)
        #expect(table.dictionary == Self.entries)
    }

    @Test(arguments: ["missing", "generated.key.5000", "generated.key.", "exactly8 ", "exactly1", "Short",
                      "grüße.überschrif", "exactly16bytes!?"])
    func aKeyNotInTheTableGivesNil(key: String) {
        let table = FrozenTable(Self.entries)
        #expect(withUTF8Bytes(of: key) { table.value(forKeyBytes: $0) } == nil)
    }

    @Test func anEmptyTableHasNoKeys() {
        let table = FrozenTable([:])
        #expect(withUTF8Bytes(of: "") { table.value(forKeyBytes: $0) } == nil)
        #expect(table.dictionary.isEmpty)
    }

    @Test func aSnapshotFindsTablesByNameAndKeepsUnchangedOnes() {
        var view = MirrorView(language: "de", developmentLanguage: "en")
        view.strings = ["Localizable": ["greeting": "Hallo"], "A.Table.Named.Longer.Than.Sixteen": ["k": "v"],
                        "Localizabl": ["greeting": "not this one"]]
        let first = MirrorSnapshot(view, changed: nil, previous: nil)
        #expect(first.value(forKey: "greeting", table: "Localizable") == "Hallo")
        #expect(first.value(forKey: "greeting", table: "Localizabl") == "not this one")
        #expect(first.value(forKey: "k", table: "A.Table.Named.Longer.Than.Sixteen") == "v")
        #expect(first.value(forKey: "k", table: "A.Table.Named.Longer.Than.Sixteeen") == nil)
        #expect(first.value(forKey: "greeting", table: "Missing") == nil)
        view.strings["Localizable"] = ["greeting": "Servus"]
        let second = MirrorSnapshot(view, changed: ["Localizable"], previous: first)
        #expect(second.value(forKey: "greeting", table: "Localizable") == "Servus")
        #expect(second.tables["Localizabl"] === first.tables["Localizabl"])
        #expect(second.tables["Localizable"] !== first.tables["Localizable"])
    }
}
