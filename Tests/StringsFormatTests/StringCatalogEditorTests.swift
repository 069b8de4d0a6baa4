import Foundation
import Testing
@testable import StringsFormat

/// `StringCatalogEditor`: catalogs are written back in Xcode's layout, so an unchanged catalog keeps its bytes and
/// an edited one changes only where it was edited.
@Suite struct StringCatalogEditorTests {
    /// A catalog as Xcode writes it: sorted members, an empty object, a raw U+2028, `/` and non-ASCII unescaped.
    static let small = """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "" : {

            },
            "Account" : {
              "comment" : "A/B \u{2028} test",
              "localizations" : {
                "de" : {
                  "stringUnit" : {
                    "state" : "needs_review",
                    "value" : "Konto \\"ß\\"\\n"
                  }
                },
                "en" : {
                  "stringUnit" : {
                    "state" : "translated",
                    "value" : "Account"
                  }
                }
              }
            },
            "posts %lld" : {
              "localizations" : {
                "en" : {
                  "variations" : {
                    "plural" : {
                      "one" : {
                        "stringUnit" : {
                          "state" : "translated",
                          "value" : "%lld post"
                        }
                      }
                    }
                  }
                }
              },
              "shouldTranslate" : false
            },
            "settings.title" : {
              "extractionState" : "manual"
            }
          },
          "version" : "1.0"
        }
        """

    static func catalogs() throws -> [(name: String, bytes: [UInt8])] {
        var result = [("small", Array(small.utf8))]
        if let file = StringCatalogCorpusTests.catalogFile {
            result.append((file.lastPathComponent, Array(try Data(contentsOf: file))))
        }
        return result
    }

    @Test func unchangedCatalogKeepsItsBytes() throws {
        for (name, bytes) in try Self.catalogs() {
            let written = StringCatalogEditor.xcodeLayout(try JSONValue(parsing: bytes))
            #expect(written == bytes, "\(name): first difference at byte \(zip(written, bytes).prefix { $0 == $1 }.count)")
        }
    }

    @Test func xcodeOrderAgreesWithEveryObjectXcodeWrote() throws {
        var pairs = 0
        var misordered: [String] = []
        func check(_ value: JSONValue) {
            switch value {
            case .object(let members):
                for (a, b) in zip(members, members.dropFirst()) {
                    pairs += 1
                    if !XcodeKeyOrder.precedes(a.0, b.0) { misordered.append("\(a.0.prefix(30)) / \(b.0.prefix(30))") }
                }
                members.forEach { check($0.1) }
            case .array(let elements): elements.forEach(check)
            default: break
            }
        }
        for (_, bytes) in try Self.catalogs() { check(try JSONValue(parsing: bytes)) }
        #expect(pairs > 1000 || StringCatalogCorpusTests.catalogFile == nil)
        #expect(misordered.isEmpty, "\(misordered.prefix(10))")
    }

    @Test(arguments: [
        ("a", "b", true), ("B", "a", false), ("a", "A", true), ("item2", "item10", true), ("tag-groups", "tag.x", true),
        ("• x", "accessibility", true), ("%lld. ", "• x", true), ("Lists", "lists.add", true), ("z", "é", false), ("e", "é", true), ("Éa", "eb", true),
        ("a b", "a.b", true), ("", "a", true),
    ])
    func xcodeOrder(a: String, b: String, precedes: Bool) {
        #expect(XcodeKeyOrder.precedes(a, b) == precedes)
        if a != b { #expect(XcodeKeyOrder.precedes(b, a) == !precedes) }
    }

    @Test func settingAnExistingLocalizationChangesOnlyItsLines() throws {
        let bytes = Array(Self.small.utf8)
        let result = try StringCatalogEditor.setting("Account", language: "de", to: "Konto / 🎉", in: bytes)
        let expected = Self.small.replacingOccurrences(
            of: "\"state\" : \"needs_review\",\n            \"value\" : \"Konto \\\"ß\\\"\\n\"",
            with: "\"state\" : \"translated\",\n            \"value\" : \"Konto / 🎉\"")
        #expect(String(decoding: result, as: UTF8.self) == expected)
        let entry = try #require(try StringCatalog.parse(result).entries.first { $0.key == "Account" })
        #expect(entry.localizations["de"]?.stringUnit?.value == "Konto / 🎉")
        #expect(entry.localizations["de"]?.stringUnit?.state == .translated)
    }

    @Test func newKeyAndNewLanguageGoWhereXcodePutsThem() throws {
        var bytes = try StringCatalogEditor.setting("Bookmarks", language: "fr", to: "Signets", comment: "Tab title",
                                                    in: Array(Self.small.utf8))
        bytes = try StringCatalogEditor.setting("Account", language: "ca", to: "Compte", in: bytes)
        let catalog = try JSONValue(parsing: bytes)
        guard case .object(let strings)? = catalog["strings"] else { Issue.record("no strings"); return }
        #expect(strings.map(\.0) == ["", "Account", "Bookmarks", "posts %lld", "settings.title"])
        let bookmarks = try #require(catalog["strings"]?["Bookmarks"])
        #expect(bookmarks == .object([
            ("comment", .string("Tab title")), ("extractionState", .string("manual")),
            ("localizations", .object([("fr", .object([("stringUnit", .object([
                ("state", .string("translated")), ("value", .string("Signets")),
            ]))]))])),
        ]))
        guard case .object(let languages)? = catalog["strings"]?["Account"]?["localizations"] else {
            Issue.record("no localizations"); return
        }
        #expect(languages.map(\.0) == ["ca", "de", "en"])
        // The result is in Xcode's layout: writing it again changes nothing.
        #expect(StringCatalogEditor.xcodeLayout(catalog) == bytes)
        let parsed = try StringCatalog.parse(bytes)
        #expect(parsed.entries.first { $0.key == "Bookmarks" }?.localizations["fr"]?.stringUnit?.value == "Signets")
    }

    @Test func removingALanguage() throws {
        var bytes = try StringCatalogEditor.removing("Account", language: "de", in: Array(Self.small.utf8))
        #expect(try StringCatalog.parse(bytes).entries.first { $0.key == "Account" }?.localizations.keys.sorted()
                == ["en"])
        bytes = try StringCatalogEditor.removing("Account", language: "en", in: bytes)
        #expect(try JSONValue(parsing: bytes)["strings"]?["Account"] == .object([("comment", .string("A/B \u{2028} test"))]))
        for (key, language) in [("Account", "en"), ("missing", "en"), ("settings.title", "en")] {
            do {
                _ = try StringCatalogEditor.removing(key, language: language, in: bytes)
                Issue.record("removed \(key) \(language)")
            } catch {
                #expect(error.code == .noSuchKey)
            }
        }
    }

    @Test func refusals() throws {
        let bytes = Array(Self.small.utf8)
        let cases: [(EditError.Code, () throws(EditError) -> [UInt8])] = [
            (.cannotEdit, { () throws(EditError) in
                try StringCatalogEditor.setting("posts %lld", language: "en", to: "x", in: bytes) }),
            (.invalidValue, { () throws(EditError) in
                try StringCatalogEditor.setting("a\u{0}", language: "en", to: "x", in: bytes) }),
            (.invalidValue, { () throws(EditError) in
                try StringCatalogEditor.setting("a", language: "en", to: "x\u{0}", in: bytes) }),
            (.invalidValue, { () throws(EditError) in
                try StringCatalogEditor.setting("", language: "en", to: "x", in: bytes) }),
            (.cannotEdit, { () throws(EditError) in
                try StringCatalogEditor.setting("a", language: "en", to: "x", in: Array("[1]".utf8)) }),
        ]
        for (code, edit) in cases {
            do {
                _ = try edit()
                Issue.record("accepted an edit that must fail with \(code)")
            } catch {
                #expect(error.code == code)
            }
        }
        do {
            _ = try StringCatalogEditor.setting("a", language: "en", to: "x", in: Array("{\n  \"strings\" : {,\n}".utf8))
            Issue.record("edited broken JSON")
        } catch {
            #expect(error.code == .unreadable)
            #expect(error.parseError?.line == 2)
            #expect(error.parseError?.column == 16)
        }
    }
}
