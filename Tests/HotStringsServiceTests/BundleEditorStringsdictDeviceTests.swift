import HotStringsService
import HotStringsTestSupport
import Testing

/// A `.stringsdict` entry's `NSStringDeviceSpecificRuleType` set through `BundleEditor` (`set` with `device`): only
/// the device's bytes change, and its format specifiers are checked against the development language's on that
/// device (else its `other`), as a catalog's device variations are.
@Suite struct BundleEditorStringsdictDeviceTests {
    static let german = deviceStringsdict(iphone: ("%lld Tipp", "%lld Tipps"), mac: "Klicken, %@", other: "Tippen, %@",
                                          plain: true)
    static let english = deviceStringsdict(iphone: ("%lld tip", "%lld tips"), mac: "Click, %@", other: "Tap, %@",
                                           plain: true)
    static let file = "de.lproj/Localizable.stringsdict"

    private let bundle: EditedBundle

    init() throws {
        bundle = try EditedBundle([Self.file: Self.german, "en.lproj/Localizable.stringsdict": Self.english,
                                   "de.lproj/Other.strings": "\"hint\" = \"w\";\n",
                                   "en.lproj/Other.strings": "\"hint\" = \"v\";\n"])
    }

    private func set(_ value: String, key: String = "hint", form: String? = nil, device: String,
                     table: String = "Localizable", force: Bool = false) throws -> String {
        try bundle.setGerman(key, value, form: form, device: device, table: table, force: force)
    }

    @Test func aDevicesTextAndFormChangeOnlyTheirBytes() throws {
        #expect(try set("Klick, %@", device: "mac") == Self.file)
        #expect(try set("ein Tipp (%lld)", form: "one", device: "iphone") == Self.file)
        // A device English lacks is compared with English's `other`, and added.
        #expect(try set("Antippen, %@", device: "ipad") == Self.file)
        #expect(try bundle.read(Self.file) == Self.german
            .replacingOccurrences(of: "<string>Klicken, %@</string>", with: "<string>Klick, %@</string>")
            .replacingOccurrences(of: "<string>%lld Tipp</string>", with: "<string>ein Tipp (%lld)</string>")
            .replacingOccurrences(of: "\t\t\t<key>iphone</key>\n",
                                  with: "\t\t\t<key>ipad</key>\n\t\t\t<string>Antippen, %@</string>\n"
                                      + "\t\t\t<key>iphone</key>\n"))
    }

    @Test(arguments: [
        ("Klicken, %d", nil, "mac", "'hint', device 'mac': '%d' takes argument 1 as an integer, where en's '%@' "
            + "takes an object"),
        ("Antippen, %2$@", nil, "ipad", "'hint', device 'ipad': '%2$@' takes argument 2, which en does not give "
            + "(en takes 1 argument)"),
        ("%@ Tipp", "one", "iphone", "'hint', device 'iphone', form 'one' of 'n': '%@' takes argument 1 as an object, "
            + "where en's '%#@n@' takes an integer"),
    ] as [(String, String?, String, String)])
    func differingSpecifiersAreRefusedWithNothingWritten(value: String, form: String?, device: String,
                                                         message: String) throws {
        let before = try bundle.contents()
        #expect {
            try set(value, form: form, device: device)
        } throws: { error in
            (error as? BundleEditor.Failure)?.kind == .specifierMismatch && "\(error)".contains(message)
        }
        #expect(try bundle.contents() == before)
        #expect(try set(value, form: form, device: device, force: true) == Self.file)
    }

    @Test func aDeviceIsRefusedWhereTheEntryHasNoDevices() throws {
        let before = try bundle.contents()
        let cases: [(String, String?, String, String, BundleEditor.Failure.Kind)] = [
            ("files", nil, "mac", "Localizable", .noSuchKey),     // no NSStringDeviceSpecificRuleType
            ("hint", "one", "mac", "Localizable", .noSuchKey),    // the Mac's text has no forms
            ("hint", nil, "iphone", "Localizable", .cannotEdit),  // the iPhone's plural: set one form
            ("hint", nil, "mac", "Other", .invalidInput),         // served from de.lproj/Other.strings
        ]
        for (key, form, device, table, kind) in cases {
            #expect {
                try set("x", key: key, form: form, device: device, table: table)
            } throws: { error in
                (error as? BundleEditor.Failure)?.kind == kind
            }
        }
        #expect(try bundle.contents() == before)
    }
}
