/// The bundle of issue 13 (`en zh-Hans zh-Hant es-419 es pt-BR pt-PT nb he id sr-Latn en-GB`) and the issue's
/// table of what a request must find in it, shared by the daemon's and `LiveStrings`' tests.
///
/// Each folder's `Localizable.strings` has `who` = the folder's canonical tag, and a key `<tag>.only` that no
/// other folder has: `who` shows which folder answered first, and `<tag>.only` shows that a later step of the
/// chain (the `then` of a row) is reached and that a folder of another script (`unreachable`) is not.
package enum LanguageMatchingBundle {
    /// One row of the table.
    package struct Row: Sendable, CustomStringConvertible {
        /// The requested language, as a device sends it.
        package var request: String
        /// The folder (canonical tag) that answers first.
        package var answers: String
        /// A folder that answers later in the chain, if the row names one.
        package var then: String?
        /// A folder that must not answer at all.
        package var unreachable: String?

        package var description: String { request }
    }

    /// The folders of the bundle, as `.lproj` names.
    package static let folders = ["en", "zh-Hans", "zh-Hant", "es-419", "es", "pt-BR", "pt-PT", "nb", "he", "id",
                                  "sr-Latn", "en-GB"]

    /// The table, row by row (`en` is the development language).
    package static let rows: [Row] = [
        Row(request: "zh-CN", answers: "zh-Hans"), Row(request: "zh-SG", answers: "zh-Hans"),
        Row(request: "zh-TW", answers: "zh-Hant"), Row(request: "zh-HK", answers: "zh-Hant"),
        Row(request: "zh-MO", answers: "zh-Hant"),
        Row(request: "es-MX", answers: "es-419", then: "es"), Row(request: "es-US", answers: "es-419", then: "es"),
        Row(request: "en-AU", answers: "en-GB", then: "en"), Row(request: "en-IN", answers: "en-GB", then: "en"),
        Row(request: "pt", answers: "pt-BR"), Row(request: "pt-AO", answers: "pt-PT"),
        Row(request: "no", answers: "nb"), Row(request: "iw", answers: "he"), Row(request: "in", answers: "id"),
        Row(request: "sr", answers: "en", unreachable: "sr-Latn"),
    ]

    /// The row about a bundle with only `zh_TW.lproj` (and the development language's `en.lproj`).
    package static let zhTWRow = Row(request: "zh-Hant-TW", answers: "zh-TW")

    /// What a lookup in `row.request` must give for each key it tries: the folder that answers (`nil`: no folder
    /// has the key). `who` and `<answers>.only` come from the first folder, `<then>.only` from the later one,
    /// and `<unreachable>.only` from none.
    package static func expectations(for row: Row) -> [(key: String, answer: String?)] {
        var expected: [(key: String, answer: String?)] = [("who", row.answers), ("\(row.answers).only", row.answers)]
        if let then = row.then { expected.append(("\(then).only", then)) }
        if let unreachable = row.unreachable { expected.append(("\(unreachable).only", nil)) }
        return expected
    }

    /// The tables of a bundle with `folders` (text by path, for `Sandbox(tables:)`); `canonical` names each
    /// folder's tag as the daemon spells it (`zh_TW` → `zh-TW`).
    package static func tables(folders: [String] = folders, canonical: (String) -> String = { $0 }) -> [String: String] {
        var tables: [String: String] = [:]
        for folder in folders {
            let tag = canonical(folder)
            tables["\(folder).lproj/Localizable.strings"] = "\"who\" = \"\(tag)\";\n\"\(tag).only\" = \"\(tag)\";\n"
        }
        return tables
    }
}
