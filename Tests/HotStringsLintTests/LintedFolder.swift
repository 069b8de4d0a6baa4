import HotStringsTestSupport
@testable import HotStringsLint

/// What the linter found in a temporary folder, read as a person reads `lint`'s lines.
struct LintedFolder {
    /// The report.
    var report: LintReport
    /// Every diagnostic as `path:line:column: severity: message` (`path: severity: message` without a place), its
    /// path relative to the folder, in the report's order.
    var findings: [String]
    /// The report's counts, as `lint --json` gives them.
    var summary: LintJSON.Summary { report.document.summary }

    /// Lints a temporary folder holding `files` (text by path relative to it), or only `paths` in it (relative;
    /// `""` is the folder), comparing against `developmentLanguage`.
    /// - Throws: what writing the files throws.
    init(_ files: [String: String], paths: [String]? = nil, developmentLanguage: String = "en") throws {
        (report, findings) = try withFiles(files) { root in
            let report = Linter(developmentLanguage: developmentLanguage)
                .lint(paths: (paths ?? [""]).map { $0.isEmpty ? root : root + "/" + $0 })
            return (report, report.findings(under: root))
        }
    }
}

extension LintReport {
    /// Every diagnostic (of `kind`, when one is given) as `path:line:column: severity: message`, or `path: severity:
    /// message` without a place, its path relative to `root` (when one is given), in the report's order; the message
    /// unescaped.
    func findings(under root: String = "", kind: Diagnostic.Kind? = nil) -> [String] {
        files.flatMap { file in
            let isBelowRoot = !root.isEmpty && file.path.hasPrefix(root + "/")
            let path = isBelowRoot ? String(file.path.dropFirst(root.count + 1)) : file.path
            return file.diagnostics.filter { kind == nil || $0.kind == kind }.map { diagnostic in
                let place = diagnostic.location.map { ":\($0.line):\($0.column)" } ?? ""
                return "\(path)\(place): \(diagnostic.severity.rawValue): \(diagnostic.message)"
            }
        }
    }
}
