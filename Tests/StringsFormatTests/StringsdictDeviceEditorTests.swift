import Foundation
import HotStringsTestSupport
import Testing
@testable import StringsFormat

/// `StringsdictEditor.setting(device:…)`: one device's `<string>` of an entry's `NSStringDeviceSpecificRuleType`
/// changes and nothing else; a device's plural form is set as an entry's; a missing device comes in its sorted place.
@Suite struct StringsdictDeviceEditorTests {
    static let file = deviceStringsdict(iphone: ("%lld Tipp", "%lld Tipps"), mac: "Klicken, %@", other: "Tippen, %@",
                                        plain: true)

    private func set(device: String, form: String? = nil, variable: String? = nil, key: String = "hint",
                     _ value: String) throws -> String {
        String(decoding: try StringsdictEditor.setting(device: device, form: form, variable: variable, of: key,
                                                       to: value, in: Array(Self.file.utf8)), as: UTF8.self)
    }

    @Test func aDevicesTextChangesOnlyItsBytes() throws {
        let result = try set(device: "mac", "Klick & <los>, %@")
        #expect(result == Self.file.replacingOccurrences(of: "<string>Klicken, %@</string>",
                                                         with: "<string>Klick &amp; &lt;los&gt;, %@</string>"))
        try StringsdictEditorTests.expectReads(Array(result.utf8), as: ["hint", "NSStringDeviceSpecificRuleType", "mac"],
                                               "Klick & <los>, %@", from: Self.file)
    }

    @Test func aDevicesPluralFormChangesOnlyItsBytes() throws {
        let result = try set(device: "iphone", form: "one", "ein Tipp (%lld)")
        #expect(result == Self.file.replacingOccurrences(of: "<string>%lld Tipp</string>",
                                                         with: "<string>ein Tipp (%lld)</string>"))
        #expect(try set(device: "iphone", form: "one", variable: "n", "ein Tipp (%lld)") == result)
    }

    @Test func aMissingDeviceIsAddedInItsSortedPlace() throws {
        let result = try set(device: "ipad", "Antippen, %@")
        #expect(result == Self.file.replacingOccurrences(
            of: "\t\t\t<key>iphone</key>\n",
            with: "\t\t\t<key>ipad</key>\n\t\t\t<string>Antippen, %@</string>\n\t\t\t<key>iphone</key>\n"))
        try StringsdictEditorTests.expectReads(Array(result.utf8), as: ["hint", "NSStringDeviceSpecificRuleType", "ipad"],
                                               "Antippen, %@", from: Self.file)
    }

    @Test func aBinaryPropertyListIsRefused() throws {
        let plist = try PropertyListSerialization.propertyList(from: Data(Self.file.utf8), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        #expect {
            try StringsdictEditor.setting(device: "mac", form: nil, variable: nil, of: "hint", to: "x",
                                          in: Array(binary))
        } throws: { error in
            (error as? EditError)?.code == .cannotEdit && "\(error)".contains("binary property list")
        }
    }

    @Test(arguments: [
        ("iphone", nil, "hint", EditError.Code.cannotEdit),   // the iPhone's entry is a plural: set one form
        ("mac", "one", "hint", .noSuchKey),                   // the Mac's text has no forms
        ("ipad", "one", "hint", .noSuchKey),                  // no iPad entry to set a form of
        ("iphone", "few", "hint", nil),                       // a missing form of the iPhone's plural is added
        ("mac", nil, "files", .noSuchKey),                    // no device entries
        ("mac", nil, "nothing", .noSuchKey),
        ("", nil, "hint", .invalidValue),
        ("mac", "lots", "hint", .invalidValue),
    ] as [(String, String?, String, EditError.Code?)])
    func whatCannotBeSetIsRefused(device: String, form: String?, key: String, code: EditError.Code?) throws {
        guard let code else {
            #expect(try set(device: device, form: form, key: key, "%lld Tipps").contains("<key>\(form ?? "")</key>"))
            return
        }
        #expect {
            try set(device: device, form: form, key: key, "x")
        } throws: { error in
            (error as? EditError)?.code == code
        }
    }
}
