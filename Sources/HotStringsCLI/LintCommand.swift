import Foundation
import HotStringsLint
import StringsFormat

/// `hotstrings lint PATH...`: syntax errors, duplicate keys, empty files and missing translations.
struct LintCommand: Command {
    static let spec = CommandSpec(
        name: "lint",
        abstract: "Check .strings, .stringsdict and .xcstrings: errors and missing keys.",
        discussion: """
            Each file is parsed the way CoreFoundation reads it; problems are printed compiler-style \
            (path:line:column: error: reason), then a summary line. Folders are searched recursively for \
            the files the daemon would serve, by the same names: *.strings, *.stringsdict and *.xcstrings, \
            suffixes in lower case, in <language>.lproj folders for tables. A name the daemon would not \
            serve that looks meant as one (Localizable.STRINGS, DE.LPROJ, x.strings~, .de.lproj) is \
            skipped and said: a warning for a likely mistake, a note for a backup or an editor's \
            temporary file. Hidden folders (.git, ..data) are not entered.

            Files laid out as <root>/<language>.lproj/<Table>.strings are compared with the same table of \
            the development language: keys missing from a translation and keys only a translation has are \
            warnings. Base.lproj is not compared, nor is a root without the development language. The text \
            output lists at most \(LintCommand.keyWarningLimit) such keys per file and kind; --json lists all. \
            Every value's format specifiers (a .strings value, a .stringsdict entry with its forms and device \
            texts, each language of a String Catalog) are judged by argument position and class against the \
            development language's value of the key: an argument it does not give, or read as another class, is \
            an error at the value (a %d translated as %@ crashes the app that formats it); an argument left out, \
            positioned and plain specifiers mixed, and a % that starts no specifier are warnings. Positions that \
            reorder the same arguments (%2$d ... %1$@) are no difference.

            In a .stringsdict, an entry without an 'other' form or with an undefined %#@variable@ is an \
            error, and so is one whose variables nest more than 8 deep or expand past 64 KiB (in a catalog \
            too: such files do not parse, and the daemon does not serve them); plural categories the \
            language does not use, or needs but lacks, are warnings.

            String Catalogs (*.xcstrings) are checked per language: a language (or sourceLanguage) that \
            is not a language tag (../x) is an error, as is a plural group without 'other'; categories \
            the language needs but lacks, and categories it never uses ('zero' aside, \
            which applies to 0 in every language), are warnings; so is each language's count of strings \
            that are new, need review or are stale.
            """,
        arguments: [
            ArgumentSpec(name: "path", help: "A .strings, .stringsdict or .xcstrings file, or a folder to search.",
                         isRepeating: true),
        ],
        options: [developmentLanguage, printsJSON, isQuiet, treatsWarningsAsErrors],
        exitCodes: [
            (ExitCode.success, "No errors (there may be warnings)."),
            (ExitCode.failure, "A file has an error or cannot be read (or a warning, with --werror)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    /// The language translations are compared with; `publish` lints with it too.
    static let developmentLanguage: CommandOption<String> = .value(
        "development-language", .text("language"), default: "en",
        help: "The language translations are compared with (the name of its .lproj folder).")
    static let printsJSON: CommandOption<Bool> = .flag(
        "json", help: "Print one JSON object with every file and diagnostic instead of text.")
    static let isQuiet: CommandOption<Bool> = .flag(
        "quiet", short: "q", help: "Print errors and the summary only (warnings are still counted).")
    static let treatsWarningsAsErrors: CommandOption<Bool> = .flag(
        "werror", help: "Exit with 1 when there are warnings, too.")

    /// How many missing or extra keys the text output lists per file before summing up the rest.
    static let keyWarningLimit = 20

    var paths: [String]
    var developmentLanguage: String
    var printsJSON: Bool
    var isQuiet: Bool
    var treatsWarningsAsErrors: Bool

    /// A lint of `paths` printing text with warnings (what `publish` prints before it publishes).
    init(paths: [String], developmentLanguage: String) {
        self.paths = paths
        self.developmentLanguage = developmentLanguage
        printsJSON = false
        isQuiet = false
        treatsWarningsAsErrors = false
    }

    init(arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        developmentLanguage = try arguments[Self.developmentLanguage]
        printsJSON = try arguments[Self.printsJSON]
        isQuiet = try arguments[Self.isQuiet]
        treatsWarningsAsErrors = try arguments[Self.treatsWarningsAsErrors]
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let report = Linter(developmentLanguage: developmentLanguage).lint(paths: paths)
        if printsJSON {
            io.stdout.write(LintCommand.json(report))
        } else {
            for file in report.files {
                io.stdout.write(text(for: file))
            }
            io.stdout.write(LintCommand.summary(report) + "\n")
        }
        let failed = report.errorCount > 0 || (treatsWarningsAsErrors && report.warningCount > 0)
        return failed ? ExitCode.failure : ExitCode.success
    }

    /// The lines for one file, with long runs of missing and extra keys cut short.
    func text(for file: LintedFile) -> String {
        var text = ""
        var shown: [Diagnostic.Kind: Int] = [:]
        var hidden: [Diagnostic.Kind: Int] = [:]
        for diagnostic in file.diagnostics where !(isQuiet && diagnostic.severity != .error) {
            if diagnostic.kind == .missingKey || diagnostic.kind == .extraKey {
                guard shown[diagnostic.kind, default: 0] < LintCommand.keyWarningLimit else {
                    hidden[diagnostic.kind, default: 0] += 1
                    continue
                }
                shown[diagnostic.kind, default: 0] += 1
            }
            text += LintCommand.line(diagnostic, path: file.path) + "\n"
        }
        let path = DisplayText.escaped(file.path)
        if let count = hidden[.missingKey] {
            text += "\(path): warning: ...and \(count) more missing \(count == 1 ? "key" : "keys")\n"
        }
        if let count = hidden[.extraKey] {
            text += "\(path): warning: ...and \(count) more \(count == 1 ? "key" : "keys") "
                + "not in the development language (\(developmentLanguage))\n"
        }
        return text
    }

    /// `path:line:column: severity: message`, or `path: severity: message` without a location.
    static func line(_ diagnostic: Diagnostic, path: String) -> String {
        if diagnostic.kind == .parseError, let location = diagnostic.location {
            return ParseError(diagnostic.message, line: location.line, column: location.column).formatted(file: path)
        }
        let shownPath = DisplayText.escaped(path)
        let place = diagnostic.location.map { "\(shownPath):\($0.line):\($0.column)" } ?? shownPath
        let message = DisplayText.escaped(diagnostic.message, keepingBackslashes: true)
        return "\(place): \(diagnostic.severity.rawValue): \(message)"
    }

    /// `3 files, 120 keys, 0 errors, 2 warnings`, and `, 1 skipped` when names were left unread.
    static func summary(_ report: LintReport) -> String {
        func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let skipped = report.skippedCount > 0 ? ["\(report.skippedCount) skipped"] : []
        return ([
            counted(report.checkedCount, "file"), counted(report.keyCount, "key"),
            counted(report.errorCount, "error"), counted(report.warningCount, "warning"),
        ] + skipped).joined(separator: ", ")
    }

    /// The whole report as one pretty-printed JSON object with sorted keys.
    static func json(_ report: LintReport) -> String {
        report.jsonText(pretty: true) + "\n"
    }
}
