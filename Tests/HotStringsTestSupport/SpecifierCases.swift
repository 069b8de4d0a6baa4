/// The table of translations whose format specifiers are judged on every path: the judgement itself, `lint`, `set`
/// through the daemon and with `--bundle`, the page's `/api/check` and `/api/set`, `LiveStrings.set` and `publish`.
/// Each case is an English (development language) value and a German translation of it, and what is found.
package struct SpecifierCase: Sendable {
    /// What is found: `error` or `warning`, and the message after the key (`form 'one' of 'n': '%d' takes …`).
    package struct Problem: Sendable, Hashable {
        package var severity: String
        /// Where in the value, as the message names it (`form 'one' of 'messages'`); empty for the value itself.
        package var place: String
        package var reason: String

        package init(_ severity: String, _ reason: String, place: String = "") {
            self.severity = severity
            self.place = place
            self.reason = reason
        }

        /// The message `lint` prints after `error: ` and `set` refuses with (before ` (--force writes it anyway)`).
        package func message(key: String) -> String {
            "'\(key)'" + (place.isEmpty ? "" : ", " + place) + ": " + reason
        }
    }

    /// The key in `SpecifierCases.table`.
    package var key: String
    /// The English value (for a form: unused, the English entry is `SpecifierCases.englishEntry`).
    package var english: String
    /// The German value, or (with `form`) the German form.
    package var german: String
    /// The plural form of `messages` the German text is (`nil`: a plain value).
    package var form: String?
    package var problems: [Problem]

    /// The `hotstrings set` arguments that write the German text (without `--bundle` or `--socket`).
    package var setArguments: [String] {
        ["set", key, german, "--language", "de", "--table", SpecifierCases.table]
            + (form.map { ["--form", $0, "--variable", "messages"] } ?? [])
    }

    /// The `set` request's members (the socket's line, the page's `/api/set` and `/api/check` body) that write it.
    package var setRequest: [(String, String)] {
        [("key", key), ("value", german), ("language", "de"), ("table", SpecifierCases.table)]
            + (form.map { [("form", $0), ("variable", "messages")] } ?? [])
    }

    /// Whether `set` refuses it: it has an error.
    package var isRefused: Bool { problems.contains { $0.severity == "error" } }

    /// The messages of its errors as `set` refuses with them: `lint`'s, joined by `; `.
    package var refusal: String {
        problems.filter { $0.severity == "error" }.map { $0.message(key: key) }.joined(separator: "; ")
            + " (--force writes it anyway)"
    }
}

package enum SpecifierCases {
    /// The table the cases are in (`en.lproj/Specifiers.strings` and `.stringsdict`, and `de.lproj`'s).
    package static let table = "Specifiers"

    private static func error(_ reason: String, place: String = "") -> SpecifierCase.Problem {
        SpecifierCase.Problem("error", reason, place: place)
    }

    private static func warning(_ reason: String, place: String = "") -> SpecifierCase.Problem {
        SpecifierCase.Problem("warning", reason, place: place)
    }

    private static let gap = ": on Apple platforms each argument after a gap is read from the place of the one "
        + "before it"

    /// Plain values.
    package static let plain: [SpecifierCase] = [
        SpecifierCase(key: "type", english: "%d files", german: "%@ Dateien", problems: [
            error("'%@' takes argument 1 as an object, where en's '%d' takes an integer"),
        ]),
        SpecifierCase(key: "obvious", english: "obvious %@", german: "offensichtlich %d", problems: [
            error("'%d' takes argument 1 as an integer, where en's '%@' takes an object"),
        ]),
        SpecifierCase(key: "swap", english: "%1$@ has %2$lld points", german: "%2$@ hat %1$lld Punkte", problems: [
            error("'%2$@' takes argument 2 as an object, where en's '%2$lld' takes an integer"),
            error("'%1$lld' takes argument 1 as an integer, where en's '%1$@' takes an object"),
        ]),
        SpecifierCase(key: "reordered", english: "%@ sent %d messages", german: "%2$d Nachrichten von %1$@",
                      problems: []),
        SpecifierCase(key: "positioned", english: "Hello %@", german: "Hallo %1$@", problems: []),
        SpecifierCase(key: "sizes", english: "%d of %ld, %lld", german: "%lld von %i, %ld", problems: []),
        SpecifierCase(key: "percent", english: "100%% of %d", german: "%d zu 100 %%", problems: []),
        SpecifierCase(key: "precision", english: "%.1f km", german: "%.2f km", problems: []),
        SpecifierCase(key: "leftOut", english: "%@ and %@", german: "%@ und andere", problems: [
            warning("argument 2 (en's '%@') is left out"),
        ]),
        SpecifierCase(key: "gap", english: "%1$@ invited %2$@", german: "%2$@ wurde eingeladen", problems: [
            error("argument 1 (en's '%1$@') is left out while '%2$@' takes argument 2" + gap),
        ]),
        SpecifierCase(key: "extra", english: "%d files", german: "%d Dateien in %d Ordnern", problems: [
            error("'%d' takes argument 2, which en does not give (en takes 1 argument)"),
        ]),
        SpecifierCase(key: "unsigned", english: "%u items", german: "%d Einträge", problems: [
            error("'%d' takes argument 1 as an integer, where en's '%u' takes an unsigned integer"),
        ]),
        SpecifierCase(key: "floating", english: "%.1f km", german: "%d km", problems: [
            error("'%d' takes argument 1 as an integer, where en's '%.1f' takes a floating-point number"),
        ]),
        SpecifierCase(key: "mixed", english: "%@ and %@", german: "%2$@ und %@", problems: [
            warning("mixes positioned '%2$@' with plain '%@': the plain ones count from argument 1 on their own, so "
                + "write a position on each"),
        ]),
        SpecifierCase(key: "prose", english: "Save", german: "Sichern % des Textes", problems: [
            warning("'% d' takes argument 1, which en does not give (en takes none; write %% for a percent sign)"),
        ]),
        SpecifierCase(key: "unknown", english: "%d selected", german: "%I ausgewählt", problems: [
            warning("'%I' is no format specifier: it takes no argument, and the value cannot be formatted (write %% "
                + "for a percent sign)"),
            warning("argument 1 (en's '%d') is left out"),
        ]),
        SpecifierCase(key: "star", english: "%*d", german: "%d", problems: [
            warning("argument 2 (en's '%*d') is left out"),
        ]),
    ]

    /// German plural forms of the `messages` variable of `%1$@ hat dir %2$#@messages@ geschickt` (the sample's
    /// `messages.received`), against English's `%1$@ sent you %2$#@messages@` (`one` = `a message`, `other` =
    /// `%d messages`).
    package static let forms: [SpecifierCase] = [
        // The issue's: on Apple platforms, `%2$@` given an Int crashes the app.
        SpecifierCase(key: "received.swap", english: "", german: "%1$d hat dir %2$@ Nachrichten geschickt",
                      form: "one", problems: [
            error("'%1$d' takes argument 1 as an integer, where en's '%1$@' takes an object",
                  place: "form 'one' of 'messages'"),
            error("'%2$@' takes argument 2 as an object, where en's '%2$#@messages@' takes an integer",
                  place: "form 'one' of 'messages'"),
        ]),
        SpecifierCase(key: "received.words", english: "", german: "eine neue Nachricht", form: "one", problems: []),
        SpecifierCase(key: "received.own", english: "", german: "%d neue Nachrichten", form: "other", problems: []),
        SpecifierCase(key: "received.name", english: "", german: "%d Nachrichten von %1$@", form: "other",
                      problems: []),
        SpecifierCase(key: "received.object", english: "", german: "%@ Nachricht", form: "one", problems: [
            error("'%@' takes argument 2 as an object, where en's '%2$#@messages@' takes an integer",
                  place: "form 'one' of 'messages'"),
        ]),
        SpecifierCase(key: "received.extra", english: "", german: "%d Nachrichten (%3$@)", form: "other", problems: [
            error("'%3$@' takes argument 3, which en does not give (en takes 2 arguments)",
                  place: "form 'other' of 'messages'"),
        ]),
    ]

    /// The English entry every form case is a key of.
    package static func englishEntry(_ key: String) -> String {
        entry(key, format: "%1$@ sent you %2$#@messages@", one: "a message", other: "%d messages")
    }

    /// The German entry of `key`, with `form` replaced by `text` when given.
    package static func germanEntry(_ key: String, form: String? = nil, text: String = "") -> String {
        entry(key, format: "%1$@ hat dir %2$#@messages@ geschickt", one: form == "one" ? text : "eine Nachricht",
              other: form == "other" ? text : "%d Nachrichten")
    }

    private static func entry(_ key: String, format: String, one: String, other: String) -> String {
        """
        \t<key>\(key)</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>\(format)</string>
        \t\t<key>messages</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>d</string>
        \t\t\t<key>one</key>
        \t\t\t<string>\(one)</string>
        \t\t\t<key>other</key>
        \t\t\t<string>\(other)</string>
        \t\t</dict>
        \t</dict>

        """
    }

    /// A `.stringsdict` of `entries`.
    package static func stringsdict(_ entries: [String]) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(entries.joined())</dict>
        </plist>

        """
    }

    /// A `.strings` text of `values`, one a line from line 1.
    package static func strings(_ values: [(key: String, value: String)]) -> String {
        values.map { "\"\($0.key)\" = \"\($0.value)\";\n" }.joined()
    }

    /// The bundle's `Specifiers` files with every case: English's, and German's holding each case's translation
    /// (`translated`) or English's own texts (not: for `set` to write the translations). Plain value `i` is on line
    /// `i + 1` of `de.lproj/Specifiers.strings`; the German `.stringsdict` has an entry per form case, keyed by it.
    package static func files(translated: Bool) -> [String: String] {
        [
            "en.lproj/\(table).strings": strings(plain.map { ($0.key, $0.english) }),
            "de.lproj/\(table).strings": strings(plain.map { ($0.key, translated ? $0.german : $0.english) }),
            "en.lproj/\(table).stringsdict": stringsdict(forms.map { englishEntry($0.key) }),
            "de.lproj/\(table).stringsdict": stringsdict(forms.map { form in
                translated ? germanEntry(form.key, form: form.form, text: form.german) : germanEntry(form.key)
            }),
        ]
    }

    /// Every case.
    package static var all: [SpecifierCase] { plain + forms }
}
