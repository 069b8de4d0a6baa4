/// The text of small String Catalogs (`.xcstrings`) for tests, shared by the watcher's, the store's, the daemon's
/// and embedded mode's tests and the benchmark.
package enum CatalogText {
    /// A localization that is a plain string unit.
    package static func text(_ value: String, state: String = "translated") -> String {
        #"{"stringUnit":{"state":"\#(state)","value":"\#(escaped(value))"}}"#
    }

    /// A localization with plural variations, one form per CLDR category (`one`, `other` …).
    package static func plural(_ forms: [String: String]) -> String {
        let cases = forms.sorted { $0.key < $1.key }.map { category, value in
            "\"\(category)\":" + text(value)
        }
        return #"{"variations":{"plural":{"# + cases.joined(separator: ",") + "}}}"
    }

    /// A catalog whose source language is `source`, with `strings`: each key and its localizations by language
    /// (fragments made by `text` and `plural`), in order, pretty-printed one member per line as Xcode writes.
    package static func catalog(source: String = "en", _ strings: [(key: String, localizations: [String: String])])
        -> String {
        let members = strings.map { key, localizations in
            let languages = localizations.sorted { $0.key < $1.key }.map { "        \"\($0.key)\" : \($0.value)" }
            return "    \"\(escaped(key))\" : {\n      \"localizations\" : {\n"
                + languages.joined(separator: ",\n") + "\n      }\n    }"
        }
        return "{\n  \"sourceLanguage\" : \"\(source)\",\n  \"strings\" : {\n" + members.joined(separator: ",\n")
            + "\n  },\n  \"version\" : \"1.0\"\n}\n"
    }

    /// A catalog of three keys: `%lld files`, whose Polish plural variations lack `other` and `many` and have
    /// `two` (one form `needs_review`), `Hello`, new in Polish, and `Bye`, stale in Polish.
    package static let unfinishedPolish = """
        {"sourceLanguage":"en","version":"1.0","strings":{
          "%lld files":{"comment":"Files","localizations":{
            "en":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld file"}},
                                         "other":{"stringUnit":{"state":"translated","value":"%lld files"}}}}},
            "pl":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld plik"}},
                                         "few":{"stringUnit":{"state":"needs_review","value":"%lld pliki"}},
                                         "two":{"stringUnit":{"state":"translated","value":"%lld pliki"}}}}}}},
          "Hello":{"localizations":{"pl":{"stringUnit":{"state":"new","value":"Hello"}}}},
          "Bye":{"localizations":{"pl":{"stringUnit":{"state":"stale","value":"Pa"}}}}
        }}
        """

    private static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
