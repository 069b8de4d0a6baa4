import HotStringsProtocol
import HotStringsService
import StringsFormat
import Testing

/// A String Catalog's device variations and plural forms set through `BundleEditor`: only the edited text's bytes
/// change, and a text whose format specifiers differ from the development language's (on that device, or in the
/// whole plural) is refused with nothing written.
@Suite struct BundleEditorVariationTests {
    /// English and German vary by device (German's iPhone by plural too); English `files` is a plural, `tap` a
    /// plain text German varies by device.
    static let catalog = String(decoding: StringCatalogEditor.xcodeLayout(try! JSONValue(parsing: Array(#"""
        {"sourceLanguage":"en","version":"1.0","strings":{
        "files":{"localizations":{
          "de":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld Datei"}},
                                        "other":{"stringUnit":{"state":"translated","value":"%lld Dateien"}}}}},
          "en":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld file"}},
                                        "other":{"stringUnit":{"state":"translated","value":"%lld files"}}}}}}},
        "hint":{"localizations":{
          "de":{"variations":{"device":{
            "iphone":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld Tipp"}},
                                              "other":{"stringUnit":{"state":"translated","value":"%lld Tipps"}}}}},
            "mac":{"stringUnit":{"state":"translated","value":"Klicken, %@"}},
            "other":{"stringUnit":{"state":"translated","value":"Tippen, %@"}}}}},
          "en":{"variations":{"device":{
            "iphone":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld tip"}},
                                              "other":{"stringUnit":{"state":"translated","value":"%lld tips"}}}}},
            "mac":{"stringUnit":{"state":"translated","value":"Click, %@"}},
            "other":{"stringUnit":{"state":"translated","value":"Tap, %@"}}}}}}},
        "tap":{"localizations":{
          "de":{"variations":{"device":{"mac":{"stringUnit":{"state":"translated","value":"Klicken %1$@ %2$d"}},
                                        "other":{"stringUnit":{"state":"translated","value":"Tippen %1$@ %2$d"}}}}},
          "en":{"stringUnit":{"state":"translated","value":"Tap %1$@ %2$d"}}}}}}
        """#.utf8))), as: UTF8.self)

    private let bundle: EditedBundle

    init() throws {
        bundle = try EditedBundle(["Localizable.xcstrings": Self.catalog, "en.lproj/Other.strings": "\"k\" = \"v\";\n",
                                   "de.lproj/Other.strings": "\"k\" = \"w\";\n"])
    }

    private func set(_ key: String, _ value: String, form: String? = nil, device: String?,
                     table: String = "Localizable", force: Bool = false) throws -> String {
        try bundle.setGerman(key, value, form: form, device: device, table: table, force: force)
    }

    @Test func aDevicesTextAndFormChangeOnlyTheirBytes() throws {
        #expect(try set("hint", "Klick, %@", device: "mac") == "Localizable.xcstrings")
        #expect(try set("hint", "ein Tipp (%lld)", form: "one", device: "iphone") == "Localizable.xcstrings")
        #expect(try bundle.read("Localizable.xcstrings") == Self.catalog
            .replacingOccurrences(of: #""value" : "Klicken, %@""#, with: #""value" : "Klick, %@""#)
            .replacingOccurrences(of: #""value" : "%lld Tipp""#, with: #""value" : "ein Tipp (%lld)""#))
    }

    @Test func aDevicesTextIsComparedWithTheDevelopmentLanguagesOnThatDevice() throws {
        // German's Mac text against English's Mac text; a device English lacks against its `other`.
        #expect(try set("hint", "Klicken, %@!", device: "mac") == "Localizable.xcstrings")
        #expect(try set("hint", "Antippen, %@", device: "ipad") == "Localizable.xcstrings")
        // A development text that does not vary by device is every device's: compared by argument.
        #expect(try set("tap", "Klicken %2$d %1$@", device: "mac") == "Localizable.xcstrings")
    }

    @Test(arguments: [
        ("hint", "Klicken, %d", nil, "mac", "'hint', device 'mac': '%d' takes argument 1 as an integer, where en's "
            + "'%@' takes an object"),
        ("hint", "Tippen %2$@", nil, "other", "'hint', device 'other': '%2$@' takes argument 2, which en does not give"),
        ("hint", "%@ Tipps", "other", "iphone", "'hint', device 'iphone', form 'other' of 'plural': '%@' takes "
            + "argument 1 as an object, where en's '%#@plural@' takes an integer"),
        // A pure swap of the arguments: each is read as the other's class.
        ("tap", "Klicken %1$d %2$@", nil, "mac", "'tap', device 'mac': '%1$d' takes argument 1 as an integer, where "
            + "en's '%1$@' takes an object; 'tap', device 'mac': '%2$@' takes argument 2 as an object, where en's "
            + "'%2$d' takes an integer"),
        // A catalog's plural form without a device, by argument, as a `.stringsdict`'s.
        ("files", "%@ Dateien", "other", nil, "'files', form 'other' of 'plural': '%@' takes argument 1 as an "
            + "object, where en's '%#@plural@' takes an integer"),
    ] as [(String, String, String?, String?, String)])
    func differingSpecifiersAreRefusedWithNothingWritten(key: String, value: String, form: String?, device: String?,
                                                         message: String) throws {
        let before = try bundle.contents()
        #expect {
            try set(key, value, form: form, device: device)
        } throws: { error in
            (error as? BundleEditor.Failure)?.kind == .specifierMismatch && "\(error)".contains(message)
        }
        #expect(try bundle.contents() == before)
        #expect(try set(key, value, form: form, device: device, force: true) == "Localizable.xcstrings")
    }

    @Test func aDeviceIsRefusedWhereThereAreNoDeviceVariations() throws {
        let before = try bundle.contents()
        let cases: [(String, String?, String, BundleEditor.Failure.Kind)] = [
            ("files", nil, "Localizable", .noSuchKey),         // no device variations in the catalog
            ("k", nil, "Other", .invalidInput),                // served from de.lproj/Other.strings
            ("nothing", nil, "Localizable", .noSuchKey),
            ("hint", "one", "Localizable", .noSuchKey),        // the Mac's text has no forms
        ]
        for (key, form, table, kind) in cases {
            #expect {
                try set(key, "x", form: form, device: "mac", table: table)
            } throws: { error in
                (error as? BundleEditor.Failure)?.kind == kind
            }
        }
        #expect {
            try bundle.editor().apply(.init(key: "hint", language: "de", table: "Localizable", change: .removal,
                                            device: "mac"))
        } throws: { error in
            (error as? BundleEditor.Failure)?.kind == .invalidInput
        }
        #expect(try bundle.contents() == before)
    }
}

extension EditedBundle {
    /// Sets German's `key` (a form of it with `form`; on `device`) through `BundleEditor`; the file written.
    func setGerman(_ key: String, _ value: String, form: String? = nil, device: String?,
                   table: String = "Localizable", force: Bool = false) throws -> String {
        let change: Edit.Change = form.map { .form($0, variable: nil, value: value) }
            ?? .value(value, comment: nil)
        return try editor().apply(.init(key: key, language: "de", table: table, change: change, device: device,
                                        isForced: force))
    }
}
