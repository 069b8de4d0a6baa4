import Foundation
import StringsFormat

/// Tables a malicious translator could write, from `Tests/StringsFormatTests/Fixtures/expansion` (one copy for
/// every test target): their variables expand k⁸-fold unless the parser bounds them (issue 20, finding 2).
package enum HostileTables {
    /// A `.stringsdict` whose key `bomb` has a variable `a` whose `other` is `%#@a@` eight times.
    package static let pluralBomb = fixture("plural-bomb.stringsdict")

    /// A String Catalog whose key `bomb` (language `en`) has a substitution `a` whose `other` is `%#@a@` eight
    /// times.
    package static let catalogBomb = fixture("catalog-bomb.xcstrings")

    /// Catalog languages that are no language tag, and would name a folder outside `compile`'s output folder or no
    /// folder at all (issue 20, finding 7).
    package static let escapingLanguages = ["../../escaped", "a/b", "", "..", "de\n.lproj"]

    /// A catalog whose key `greeting` is translated into `de` and `language`, with `sourceLanguage` as the source;
    /// the key on line 2.
    package static func catalog(language: String, sourceLanguage: String = "en") -> String {
        let quoted = JSONWriter.quoted(language)
        return """
            {"sourceLanguage": \(JSONWriter.quoted(sourceLanguage)), "version": "1.0", "strings": {
              "greeting": {"localizations": {"de": {"stringUnit": {"state": "translated", "value": "Hallo"}},
                \(quoted): {"stringUnit": {"state": "translated", "value": "Hostile"}}}}
            }}
            """
    }

    private static func fixture(_ name: String) -> String {
        let path = repositoryRoot.appendingPathComponent("Tests/StringsFormatTests/Fixtures/expansion/\(name)").path
        // A missing fixture is a broken checkout: fail loudly rather than test an empty file.
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            preconditionFailure("cannot read the fixture \(path)")
        }
        return text
    }
}
