import Foundation

extension LintReport {
    /// The report in the shape of `lint --json` (and the page's `/api/lint`).
    package var document: LintJSON {
        LintJSON(
            files: files.map { file in
                LintJSON.File(
                    path: file.path, encoding: file.table?.encoding.rawValue, keys: file.table?.count ?? 0,
                    language: file.place?.language, table: file.place?.table, skipped: file.isSkipped ? true : nil,
                    diagnostics: file.diagnostics.map { diagnostic in
                        LintJSON.Diagnostic(
                            severity: diagnostic.severity.rawValue, line: diagnostic.location?.line,
                            column: diagnostic.location?.column, message: diagnostic.message, key: diagnostic.key)
                    })
            },
            summary: LintJSON.Summary(files: checkedCount, keys: keyCount, errors: errorCount,
                                      warnings: warningCount, skipped: skippedCount > 0 ? skippedCount : nil))
    }

    /// `document` as one JSON object with sorted keys: pretty-printed for people, else on one line.
    package func jsonText(pretty: Bool) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            : [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(document), as: UTF8.self)
        } catch {
            // Strings and integers always encode; a failure here is a bug in this file.
            preconditionFailure("lint report did not encode: \(error)")
        }
    }
}

/// The shape of `lint --json`.
package struct LintJSON: Codable, Equatable {
    package struct File: Codable, Equatable {
        package var path: String
        package var encoding: String?
        package var keys: Int
        package var language: String?
        package var table: String?
        /// True for a name left unread because the daemon does not serve it (its diagnostic says why).
        package var skipped: Bool?
        package var diagnostics: [Diagnostic]
    }

    package struct Diagnostic: Codable, Equatable {
        package var severity: String
        package var line: Int?
        package var column: Int?
        package var message: String
        package var key: String?
    }

    package struct Summary: Codable, Equatable {
        package var files: Int
        package var keys: Int
        package var errors: Int
        package var warnings: Int
        /// How many names were left unread because the daemon does not serve them; absent for none.
        package var skipped: Int?
    }

    package var files: [File]
    package var summary: Summary
}
