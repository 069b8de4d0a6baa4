import Testing
@testable import StringsFormat

/// `StringCatalogEditor.setting(form:…)`: one plural form of a catalog's variations, as the page and `set --form`
/// edit it; only that form's lines change.
@Suite struct StringCatalogFormEditorTests {
    @Test func settingAnExistingFormChangesOnlyItsLine() throws {
        let small = StringCatalogEditorTests.small
        let result = try StringCatalogEditor.setting(form: "one", variable: nil, of: "posts %lld", language: "en",
                                                     to: "%lld Beitrag", in: Array(small.utf8))
        #expect(String(decoding: result, as: UTF8.self)
            == small.replacingOccurrences(of: "\"value\" : \"%lld post\"", with: "\"value\" : \"%lld Beitrag\""))
    }

    @Test func aMissingFormIsAddedInXcodesOrder() throws {
        let result = try StringCatalogEditor.setting(form: "other", variable: "plural", of: "posts %lld",
                                                     language: "en", to: "%lld posts",
                                                     in: Array(StringCatalogEditorTests.small.utf8))
        let entry = try #require(try StringCatalog.parse(result).entries.first { $0.key == "posts %lld" })
        guard case .plural(let forms)? = entry.localizations["en"]?.variations else {
            Issue.record("no plural variations"); return
        }
        #expect(forms[.other]?.stringUnit == .init(state: .translated, value: "%lld posts"))
        #expect(forms[.one]?.stringUnit?.value == "%lld post")
        #expect(StringCatalogEditor.xcodeLayout(try JSONValue(parsing: result)) == result)
    }

    @Test func aSubstitutionsFormIsSetByItsName() throws {
        let catalog = #"""
            {"sourceLanguage":"en","strings":{"k":{"localizations":{"de":{"stringUnit":{"state":"translated",
            "value":"%#@files@"},"substitutions":{"files":{"argNum":1,"formatSpecifier":"lld","variations":{"plural":
            {"other":{"stringUnit":{"state":"new","value":"%arg Dateien"}}}}}}}}}},"version":"1.0"}
            """#
        let result = try StringCatalogEditor.setting(form: "one", variable: "files", of: "k", language: "de",
                                                     to: "eine Datei", in: Array(catalog.utf8))
        let localization = try #require(try StringCatalog.parse(result).entries.first?.localizations["de"])
        guard case .plural(let forms)? = localization.substitutions["files"]?.variations else {
            Issue.record("no substitution variations"); return
        }
        #expect(forms[.one]?.stringUnit == .init(state: .translated, value: "eine Datei"))
        #expect(forms[.other]?.stringUnit?.value == "%arg Dateien")
    }

    @Test func refusals() throws {
        let bytes = Array(StringCatalogEditorTests.small.utf8)
        let cases: [(EditError.Code, String, String, String)] = [
            (.noSuchKey, "Account", "de", "one"),         // a plain string unit: no forms to set
            (.noSuchKey, "nothing", "en", "one"),
            (.noSuchKey, "posts %lld", "fr", "one"),
            (.invalidValue, "posts %lld", "en", "several"),
        ]
        for (code, key, language, form) in cases {
            do {
                _ = try StringCatalogEditor.setting(form: form, variable: nil, of: key, language: language, to: "x",
                                                    in: bytes)
                Issue.record("set \(form) of \(key) in \(language)")
            } catch {
                #expect(error.code == code, "\(key) \(language) \(form)")
            }
        }
    }
}
