import BundleChanges
import StringsFormat
import Testing

/// The naming rule itself: what each name is (`BundleNames`). BundleNameUsersTests runs the same names through every
/// user of the rule.
@Suite struct BundleNamesTests {
    @Test(arguments: [
        ("de.lproj", "de"), ("DE.lproj", "de"), ("de_DE.lproj", "de-DE"), ("de-de.lproj", "de-DE"),
        ("zh-Hans.lproj", "zh-Hans"), ("zh_hans.lproj", "zh-Hans"), ("Base.lproj", "Base"), ("German.lproj", "de"),
        ("pt_BR.lproj", "pt-BR"), ("de.lproj~", nil), (".de.lproj", nil), (".lproj", nil), ("DE.LPROJ", nil),
        ("de.LProj", nil), ("de.lproj.bak", nil), ("de", nil), ("..data", nil), ("..r-abc", nil), (".~tmp~", nil),
        ("Not a tag.lproj", nil), ("#de.lproj#", nil),
    ] as [(String, String?)])
    func languageFolders(_ example: (String, String?)) {
        #expect(BundleNames.language(ofFolder: example.0)?.identifier == example.1)
    }

    @Test(arguments: [
        ("Resources", BundleNames.Folder.searched), ("DE.LPROJ", .searched),
        ("de.lproj", .language(LanguageTag("de")!)),
        ("Not a tag.lproj", .notALanguage("Not a tag")), (".lproj", .ignored(.hidden)), (".git", .ignored(.hidden)),
        ("..data", .ignored(.hidden)), ("..r-abc", .ignored(.hidden)), ("de.lproj~", .ignored(.backup)),
        ("Resources~", .ignored(.backup)), ("#Resources#", .ignored(.temporary)),
    ])
    func folders(_ name: String, _ expected: BundleNames.Folder) {
        #expect(BundleNames.folder(named: name) == expected)
        #expect(BundleNames.isSearched(folder: name) == (expected == .searched))
    }

    @Test(arguments: [
        ("Localizable.strings", BundleNames.File.table("Localizable", .strings)),
        ("Localizable.stringsdict", .table("Localizable", .stringsdict)), ("Foo.xcstrings", .table("Foo", .catalog)),
        ("x.strings.strings", .table("x.strings", .strings)), ("Localizable.STRINGS", .other),
        ("Foo.XCSTRINGS", .other), ("Plural.STRINGSDICT", .other), (".strings", .ignored(.hidden)),
        ("strings", .other), ("notes.txt", .other), (".Localizable.strings.Xa9f3Q", .ignored(.hidden)),
        (".Localizable.strings.swp", .ignored(.hidden)), (".#Localizable.strings", .ignored(.hidden)),
        ("Localizable.strings~", .ignored(.backup)), ("Localizable.stringsdict~", .ignored(.backup)),
        ("x.strings.swp", .ignored(.temporary)), ("x.strings.swo", .ignored(.temporary)),
        ("#Localizable.strings#", .ignored(.temporary)), ("4913", .ignored(.temporary)), ("..data", .ignored(.hidden)),
        (".swp", .ignored(.hidden)), ("swp", .other),
    ])
    func files(_ name: String, _ expected: BundleNames.File) {
        #expect(BundleNames.file(named: name) == expected)
    }

    /// Names that look meant as a language folder, a table or a catalog but are not served say why; a mistake (a
    /// suffix in other case, a folder that is no language tag) is told apart from a temporary name.
    @Test func namesNotServedSayWhy() throws {
        let folder = try #require(BundleNames.notServed(folder: "DE.LPROJ"))
        #expect(folder.isMistake)
        #expect(folder.reason == "'.LPROJ' is not '.lproj' (names are case-sensitive): not a language folder, its "
            + "tables are not served; rename it 'DE.lproj'")
        let file = try #require(BundleNames.notServed(file: "X.STRINGS"))
        #expect(file.isMistake && file.meantFormat == .strings)
        #expect(file.reason
            == "'.STRINGS' is not '.strings' (names are case-sensitive): not served; rename it 'X.strings'")
        #expect(BundleNames.notServed(file: "Foo.XCSTRINGS")?.meantFormat == .catalog)
        #expect(BundleNames.notServed(file: "Plural.STRINGSDICT")?.meantFormat == .stringsdict)
        let tag = try #require(BundleNames.notServed(folder: "Not a tag.lproj"))
        #expect(tag.isMistake && tag.reason == "'Not a tag' is not a language tag: the folder is not served; rename it")
        for name in ["Localizable.strings~", ".#Localizable.strings", "x.strings.swp", "#Localizable.strings#"] {
            let notServed = try #require(BundleNames.notServed(file: name), "\(name)")
            #expect(!notServed.isMistake && notServed.meantFormat == .strings, "\(name)")
        }
        #expect(BundleNames.notServed(file: "x.strings.swp")?.reason
            == "an editor's temporary file: not served as a table")
        #expect(BundleNames.notServed(folder: ".de.lproj")?.reason == "a hidden name: not served as a language folder")
        #expect(BundleNames.notServed(folder: "de.lproj~")?.reason
            == "a backup (it ends in '~'): not served as a language folder")
        for name in ["de.lproj", "Localizable.strings", "Resources", "..data", "..r-abc", ".git", "4913", "notes.txt",
                     ".Localizable.strings.Xa9f3Q"] {
            #expect(BundleNames.notServed(folder: name) == nil, "\(name)")
            #expect(BundleNames.notServed(file: name) == nil, "\(name)")
        }
        #expect(BundleNames.readableFormat(ofFile: "X.STRINGSDICT") == .stringsdict)
        #expect(BundleNames.readableFormat(ofFile: "notes.txt") == nil)
    }

    @Test func tableNamesAndTheFoldersLanguagesAreWrittenTo() {
        // Only the files' names count: `backup~.strings` is a table's file, not a backup.
        for table in ["Localizable", "x.strings", "4913", "Info Plist", "backup~", "#auto#"] {
            #expect(BundleNames.isTableName(table), "\(table)")
        }
        for table in ["", ".hidden", "a/b", "nul\u{0}"] {
            #expect(!BundleNames.isTableName(table), "\(table)")
        }
        #expect(BundleNames.languageFolder(written: "zh-Hans") == "zh-Hans.lproj")
        #expect(BundleNames.languageFolder(written: "pt_BR") == "pt_BR.lproj")
        for written in ["../x", "a/b", "", ".de", "de~"] {
            #expect(BundleNames.languageFolder(written: written) == nil, "\(written)")
        }
    }

    /// Folders of one language: the canonical name is served, else the first in byte order; hidden folders, backups
    /// and names in other case take no part (they are no language folders).
    @Test func clashes() {
        let clashes = BundleNames.clashes(among: ["DE.lproj", "de.lproj", ".de.lproj", "de.lproj~", "DE.LPROJ",
                                                  "German.lproj", "fr.lproj"])
        #expect(clashes.map(\.served) == ["de.lproj"])
        #expect(clashes.first?.unserved == ["DE.lproj", "German.lproj"])
        #expect(BundleNames.clashes(among: ["de_DE.lproj", "de-de.lproj"]).first?.served == "de-de.lproj")
        #expect(BundleNames.clashes(among: ["de.lproj", ".de.lproj", "de.lproj~", "DE.LPROJ"]).isEmpty)
    }
}
