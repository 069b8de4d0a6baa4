import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import StringsFormat
import Testing
@testable import HotStringsLint

/// The linter judges every value's format specifiers by argument position and class against the development
/// language's (`FormatSpecifiers`), and reports each problem at the value.
struct LintSpecifierTests {
    /// The table every path is tested with (`SpecifierCases`), each translation in a `.strings` value or a plural
    /// form of a `.stringsdict` entry.
    @Test func everyCaseOfTheTableIsReportedAtItsValue() throws {
        let linted = try LintedFolder(SpecifierCases.files(translated: true))
        let strings = "de.lproj/\(SpecifierCases.table).strings"
        let stringsdict = "de.lproj/\(SpecifierCases.table).stringsdict"
        var expected: [String] = []
        for (index, value) in SpecifierCases.plain.enumerated() {
            expected += value.problems.map {
                "\(strings):\(index + 1):1: \($0.severity): \($0.message(key: value.key))"
            }
        }
        // Each entry of the generated `.stringsdict` is 16 lines, after 4 lines of header; its key is indented.
        for (index, form) in SpecifierCases.forms.enumerated() {
            expected += form.problems.map {
                "\(stringsdict):\(5 + 16 * index):2: \($0.severity): \($0.message(key: form.key))"
            }
        }
        #expect(linted.findings == expected)
        let problems = SpecifierCases.all.flatMap(\.problems)
        let errors = problems.count { $0.severity == "error" }
        #expect(linted.summary == LintJSON.Summary(files: 4, keys: 2 * SpecifierCases.all.count, errors: errors,
                                                   warnings: problems.count - errors))
    }

    /// The issue's: the sample's German `messages.received` with a form that swaps the arguments' classes (on Apple
    /// platforms `%2$@` given an Int crashes the app) lints with 2 errors, not 0.
    @Test func aPluralFormThatSwapsTheArgumentsClassesIsAnError() throws {
        let german = try String(contentsOfFile: sampleBundlePath + "/de.lproj/Localizable.stringsdict", encoding: .utf8)
            .replacingOccurrences(of: "<string>eine Nachricht</string>",
                                  with: "<string>%1$d hat dir %2$@ Nachrichten geschickt</string>")
        let files = [
            "en.lproj/Localizable.stringsdict": try String(
                contentsOfFile: sampleBundlePath + "/en.lproj/Localizable.stringsdict", encoding: .utf8),
            "de.lproj/Localizable.stringsdict": german,
        ]
        let linted = try LintedFolder(files)
        let de = "de.lproj/Localizable.stringsdict"
        #expect(linted.findings == [
            "\(de):23:2: error: 'messages.received', form 'one' of 'messages': '%1$d' takes argument 1 as an "
                + "integer, where en's '%1$@' takes an object",
            "\(de):23:2: error: 'messages.received', form 'one' of 'messages': '%2$@' takes argument 2 as an "
                + "object, where en's '%2$#@messages@' takes an integer",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 2, keys: 4, errors: 2, warnings: 0))
    }

    /// String Catalog values are judged too: each language's localization as it compiles (plural variations and
    /// substitutions included), against the development language's.
    @Test func catalogValuesAreJudgedAgainstTheDevelopmentLanguage() throws {
        let catalog = CatalogText.catalog([
            ("obvious", ["en": CatalogText.text("obvious %@"), "de": CatalogText.text("offensichtlich %d")]),
            ("points", ["en": CatalogText.text("%1$@ has %2$lld points"),
                        "de": CatalogText.text("%2$@ hat %1$lld Punkte")]),
            ("files", ["en": CatalogText.plural(["one": "%lld file", "other": "%lld files"]),
                       "de": CatalogText.plural(["one": "%@ Datei", "other": "%lld Dateien"])]),
            ("fine", ["en": CatalogText.text("%1$@ has %2$lld points"),
                      "de": CatalogText.text("%2$lld Punkte hat %1$@")]),
        ])
        let linted = try LintedFolder(["Localizable.xcstrings": catalog])
        let path = "Localizable.xcstrings"
        #expect(linted.findings == [
            "\(path):4:5: error: 'obvious', language 'de': '%d' takes argument 1 as an integer, where en's '%@' "
                + "takes an object",
            "\(path):10:5: error: 'points', language 'de': '%2$@' takes argument 2 as an object, where en's "
                + "'%2$lld' takes an integer",
            "\(path):10:5: error: 'points', language 'de': '%1$lld' takes argument 1 as an integer, where en's "
                + "'%1$@' takes an object",
            "\(path):16:5: error: 'files', language 'de', form 'one' of 'plural': '%@' takes argument 1 as an "
                + "object, where en's '%#@plural@' takes an integer",
        ])
        #expect(linted.summary == LintJSON.Summary(files: 1, keys: 4, errors: 4, warnings: 0))
    }

    /// Every value, form and variation of every language of the shared corpus (real apps' `.strings`,
    /// `.stringsdict` and String Catalogs) against English: the mismatches real apps ship, pinned. Each was read
    /// by eye: none is a legitimate translation.
    @Test(.needsCorpus)
    func theCorpusMismatchesArePinned() throws {
        let root = try #require(corpusRoot)
        let found = Linter(developmentLanguage: "en").lint(paths: [root])
            .findings(under: root, kind: .formatSpecifiers)
        let iceCubes = "IceCubesApp/IceCubesApp/Resources/Localization/Localizable.xcstrings"
        let elementX = "element-x-ios/ElementX/Resources/Localizations"
        let percent = "is no format specifier: it takes no argument, and the value cannot be formatted (write %% for a "
            + "percent sign)"
        #expect(found == [
            "\(iceCubes):498:5: warning: '%@ add-tag-groups.edit.title.field.warning.already-exists', language 'pl': "
                + "argument 1 (en's '%@') is left out",
            "\(iceCubes):16495:5: error: 'account.label.followers %lld %@', language 'ko': argument 1 (en's "
                + "'%#@followers@') is left out while '%2$@' takes argument 2: on Apple platforms each argument after "
                + "a gap is read from the place of the one before it",
            "\(iceCubes):17587:5: warning: 'account.movedto.redirect-%@', language 'nb': argument 1 (en's '%@') is "
                + "left out",
            "\(iceCubes):33846:5: error: 'instance.list.posts-%@', language 'ca': '% p' takes argument 1 as a "
                + "pointer, where en's '%@' takes an object",
            "element-ios/Riot/Assets/cy.lproj/Vector.strings:1377:1: warning: "
                + "'notice_encryption_enabled_unknown_algorithm': mixes positioned '%2$@' with plain '%@': the plain "
                + "ones count from argument 1 on their own, so write a position on each",
            "element-ios/Riot/Assets/de.lproj/Vector.strings:2721:1: warning: "
                + "'key_backup_recover_from_private_key_progress': '%\u{A0}' " + percent,
            "element-ios/Riot/Assets/de.lproj/Vector.strings:2721:1: error: "
                + "'key_backup_recover_from_private_key_progress': '% a' takes argument 2, which en does not give (en "
                + "takes 1 argument)",
            "element-ios/Riot/Assets/id.lproj/Vector.strings:710:1: warning: 'secrets_setup_recovery_key_information': "
                + "'% d' takes argument 1, which en does not give (en takes none; write %% for a percent sign)",
            "\(elementX)/da.lproj/Localizable.stringsdict:21:2: error: 'a11y_polls_percent_of_total', form 'one' of "
                + "'COUNT': '% a' takes argument 1 as a floating-point number, where en's '%#@COUNT@' takes an integer",
            "\(elementX)/el.lproj/Localizable.stringsdict:661:2: warning: "
                + "'troubleshoot_notifications_test_unified_push_success', form 'one' of 'COUNT': '%\u{392}' " + percent,
            "\(elementX)/ja.lproj/Localizable.stringsdict:19:2: warning: 'a11y_polls_percent_of_total', form 'other' "
                + "of 'COUNT': '%' " + percent,
            "focus-ios/focus-ios/Blockzilla/cs.lproj/Localizable.strings:101:1: warning: 'Autocomplete.mySitesDesc': "
                + "argument 1 (en's '%@') is left out",
            "simplenote-ios/Simplenote/it.lproj/Localizable.strings:31:1: warning: '%i Selected': '%I' " + percent,
            "simplenote-ios/Simplenote/it.lproj/Localizable.strings:31:1: warning: '%i Selected': argument 1 (en's "
                + "'%i') is left out",
        ])
    }
}
