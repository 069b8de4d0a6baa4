import StringsFormat

/// The page's list of tables (`GET /api/tables`, docs/WEB.md), made from a `languages` answer: each table with the
/// languages that have it, the development language and the pseudo-languages.
package struct TableList: Sendable, Equatable {
    /// One table name and the languages that have a table of that name.
    package struct Table: Sendable, Equatable {
        /// The table name.
        package var table: String
        /// The languages that have it, sorted.
        package var languages: [String]
    }

    /// The tables, sorted by name.
    package var tables: [Table]
    /// The language every lookup falls back to before `Base`.
    package var developmentLanguage: String
    /// The pseudo-languages served, sorted.
    package var pseudoLanguages: [String]

    /// The list of the tables `answer` names.
    package init(_ answer: LanguagesAnswer) {
        var languagesByTable: [String: [String]] = [:]
        for summary in answer.languages {
            for table in summary.tables.keys { languagesByTable[table, default: []].append(summary.language) }
        }
        tables = languagesByTable.sorted { $0.key < $1.key }.map { Table(table: $0.key, languages: $0.value.sorted()) }
        developmentLanguage = answer.developmentLanguage
        pseudoLanguages = answer.languages.filter(\.isPseudo).map(\.language).sorted()
    }

    /// Reads the page's body, `{"ok":true,"tables":[{table, languages}],"developmentLanguage","pseudoLanguages"}`.
    /// - Throws: `MalformedMessage` naming what is missing or of the wrong type.
    package init(body: [UInt8]) throws(MalformedMessage) {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: body)
        } catch {
            throw MalformedMessage("invalid JSON: \(error)")
        }
        let reader = MemberReader(value: value, path: "tables")
        tables = try reader.array("tables").map { table throws(MalformedMessage) in
            Table(table: try table.string("table"), languages: try table.strings("languages"))
        }
        developmentLanguage = try reader.string("developmentLanguage")
        pseudoLanguages = try reader.strings("pseudoLanguages")
    }

    /// The page's body: `ok`, then the tables, the development language and the pseudo-languages.
    package var body: [UInt8] {
        JSONValue.object([
            ("ok", .bool(true)),
            ("tables", .array(tables.map { table in
                .object([("table", .string(table.table)), ("languages", .strings(table.languages))])
            })),
            ("developmentLanguage", .string(developmentLanguage)),
            ("pseudoLanguages", .strings(pseudoLanguages)),
        ]).serialized()
    }
}
