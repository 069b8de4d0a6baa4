import Testing
@testable import StringsFormat

/// `StringCatalogEditor.setting(device:…)`: one device's text, or one plural form of it, as the page and `set` with
/// `device` edit it; only that text's line changes.
@Suite struct StringCatalogDeviceEditorTests {
    /// Both nestings Xcode writes: devices with a text or a plural each, and a plural whose forms vary by device.
    static let catalog = StringCatalogEditor.xcodeLayout(try! JSONValue(parsing: Array(#"""
        {"sourceLanguage":"en","version":"1.0","strings":{
        "hint":{"localizations":{"de":{"variations":{"device":{
          "iphone":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld Tipp"}},
                                            "other":{"stringUnit":{"state":"translated","value":"%lld Tipps"}}}}},
          "mac":{"stringUnit":{"state":"translated","value":"Klicken"}},
          "other":{"stringUnit":{"state":"new","value":"Tippen"}}}}}}},
        "photos":{"localizations":{"de":{"variations":{"plural":{
          "one":{"variations":{"device":{"mac":{"stringUnit":{"state":"translated","value":"%lld Foto am Mac"}},
                                         "other":{"stringUnit":{"state":"translated","value":"%lld Foto"}}}}},
          "other":{"stringUnit":{"state":"translated","value":"%lld Fotos"}}}}}}},
        "plain":{"localizations":{"de":{"stringUnit":{"state":"translated","value":"Schlicht"}}}}}}
        """#.utf8)))

    private func set(_ device: String, form: String? = nil, variable: String? = nil, of key: String,
                     to value: String) throws -> String {
        String(decoding: try StringCatalogEditor.setting(device: device, form: form, variable: variable, of: key,
                                                         language: "de", to: value, in: Self.catalog),
               as: UTF8.self)
    }

    private var original: String { String(decoding: Self.catalog, as: UTF8.self) }

    @Test func aDevicesTextChangesOnlyItsLine() throws {
        #expect(try set("mac", of: "hint", to: "Klick")
            == original.replacingOccurrences(of: #""value" : "Klicken""#, with: #""value" : "Klick""#))
        // A `new` text becomes translated: its state line changes too.
        #expect(try set("other", of: "hint", to: "Tipp")
            == original.replacingOccurrences(
                of: "\"state\" : \"new\",\n                  \"value\" : \"Tippen\"",
                with: "\"state\" : \"translated\",\n                  \"value\" : \"Tipp\""))
    }

    @Test func aFormInsideADeviceChangesOnlyItsLine() throws {
        #expect(try set("iphone", form: "one", variable: "plural", of: "hint", to: "ein Tipp")
            == original.replacingOccurrences(of: #""value" : "%lld Tipp""#, with: #""value" : "ein Tipp""#))
    }

    @Test func aPluralVaryingByDeviceInsideSetsTheDeviceOfTheForm() throws {
        #expect(try set("mac", form: "one", of: "photos", to: "%lld Bild am Mac")
            == original.replacingOccurrences(of: #""value" : "%lld Foto am Mac""#,
                                             with: #""value" : "%lld Bild am Mac""#))
        // A form that does not vary by device is one text for every device.
        #expect(try set("mac", form: "other", of: "photos", to: "%lld Bilder")
            == original.replacingOccurrences(of: #""value" : "%lld Fotos""#, with: #""value" : "%lld Bilder""#))
    }

    @Test func aMissingDeviceIsAdded() throws {
        let result = try set("ipad", of: "hint", to: "Antippen")
        let localization = try #require(try StringCatalog.parse(Array(result.utf8)).entries.first?.localizations["de"])
        guard case .device(let devices)? = localization.variations else {
            Issue.record("no device variations"); return
        }
        #expect(devices["ipad"] == .text("Antippen"))
        #expect(devices["mac"] == .text("Klicken"))
        #expect(StringCatalogEditor.xcodeLayout(try JSONValue(parsing: Array(result.utf8))) == Array(result.utf8))
    }

    @Test(arguments: [
        (EditError.Code.noSuchKey, "plain", "mac", nil),        // no device variations
        (.noSuchKey, "nothing", "mac", nil),
        (.noSuchKey, "mac", "mac", "one"),                      // no such key
        (.noSuchKey, "hint", "mac", "one"),                     // a device's plain text has no forms
        (.cannotEdit, "hint", "iphone", nil),                   // a device's forms are not one text
        (.noSuchKey, "photos", "mac", nil),                     // a plural's devices are set by form
        (.invalidValue, "hint", "", nil),
        (.invalidValue, "hint", "iphone", "several"),
    ] as [(EditError.Code, String, String, String?)])
    func refusals(code: EditError.Code, key: String, device: String, form: String?) throws {
        do {
            _ = try set(device, form: form, of: key, to: "x")
            Issue.record("set \(device) \(form ?? "") of \(key)")
        } catch let error as EditError {
            #expect(error.code == code, "\(error)")
        }
    }
}
