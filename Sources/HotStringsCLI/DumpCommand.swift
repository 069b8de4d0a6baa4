import BundleChanges
import HotStringsLint
import LinuxSystem
import StringsFormat

/// `hotstrings dump FILE`: one `.strings` table as JSON, keys in source order; a `.stringsdict` as its whole
/// structure; a String Catalog per language.
struct DumpCommand: Command {
    static let spec = CommandSpec(
        name: "dump",
        abstract: "Print a .strings table, a .stringsdict, or a String Catalog per language, as JSON.",
        discussion: """
            The output is one JSON object, pretty-printed with a two-space indent like \
            'plutil -convert json -r', with the keys in the order the file writes them. A key written twice \
            keeps its first place and its last value, as CoreFoundation reads it. With --comments each value \
            becomes {"value": ..., "comment": ...}, the comment left out when the entry has none.

            A String Catalog (*.xcstrings) prints one object per language, {"language": {"key": value}}, \
            or only the object of --language: what Xcode's build makes of it, keys in catalog order, a plain \
            text as a string and a plural or device rule as its .stringsdict dictionary.

            A .stringsdict file (by its name, or --stringsdict for standard input) is printed as its whole \
            property list structure, as 'plutil -convert json -r' prints it: each entry's \
            NSStringLocalizedFormatKey and variable dictionaries, dictionary keys sorted (a property list \
            dictionary has no order). The file is checked as the daemon reads it, so an entry that cannot be \
            served (no format key, an unknown rule type or category) is an error with its line and column.
            """,
        arguments: [
            ArgumentSpec(name: "file", help: "The .strings, .stringsdict or .xcstrings file to read; '-' reads "
                             + "standard input."),
        ],
        options: [includesComments, language, isStringsdict],
        exitCodes: [
            (ExitCode.success, "The table was printed."),
            (ExitCode.failure, "The file cannot be read or does not parse (the error is on standard error)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    static let includesComments: CommandOption<Bool> = .flag(
        "comments", help: "Print each entry's translator comment next to its value.")
    static let language: CommandOption<String?> = .optional(
        "language", .text("language"), help: "For a catalog, print this language only.")
    static let isStringsdict: CommandOption<Bool> = .flag(
        "stringsdict", help: "Read the file as a .stringsdict whatever its name (for '-').")

    var path: String
    var includesComments: Bool
    var language: String?
    var isStringsdict: Bool
    /// The format the file's name says (`BundleNames`), nil for other names and `-`.
    var format: BundleNames.Format?

    init(arguments: ParsedArguments) throws(UsageError) {
        path = arguments.positionals[0]
        includesComments = try arguments[Self.includesComments]
        language = try arguments[Self.language]
        format = BundleNames.readableFormat(ofFile: String(path.split(separator: "/").last ?? ""))
        if language != nil, format != .catalog {
            throw UsageError("--language is for String Catalogs (.xcstrings)")
        }
        isStringsdict = try arguments[Self.isStringsdict] || format == .stringsdict
        if isStringsdict, includesComments { throw UsageError("--comments is for .strings files") }
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let name = path == "-" ? "<stdin>" : path
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = path == "-" ? try io.readStandardInput() : try FileSystem.readToEnd(atPath: path)
        } catch {
            io.stderr.write("\(DisplayText.escaped(name)): error: \(error.errno.message)\n")
            return ExitCode.failure
        }
        if format == .catalog { return dumpCatalog(bytes, name: name, io: &io) }
        if isStringsdict {
            do throws(ParseError) {
                _ = try StringsdictFile.parse(bytes)
                io.stdout.write(DumpCommand.json(try StringsdictFile.propertyList(bytes), level: 0) + "\n")
                return ExitCode.success
            } catch {
                io.stderr.write(error.formatted(file: DisplayText.escaped(name)) + "\n")
                return ExitCode.failure
            }
        }
        let table: StringsTable
        do throws(ParseError) {
            table = try StringsFile.parse(bytes)
        } catch {
            io.stderr.write(error.formatted(file: name) + "\n")
            return ExitCode.failure
        }
        io.stdout.write(DumpCommand.json(table, includesComments: includesComments) + "\n")
        return ExitCode.success
    }

    /// The table as a JSON object in source order.
    static func json(_ table: StringsTable, includesComments: Bool) -> String {
        JSONWriter.prettyObject(table.entries.map { entry in
            guard includesComments else { return (entry.key, JSONWriter.quoted(entry.value)) }
            var members = [(key: "value", value: JSONWriter.quoted(entry.value))]
            if let comment = entry.comment { members.append(("comment", JSONWriter.quoted(comment))) }
            return (entry.key, JSONWriter.prettyObject(members, level: 1))
        })
    }
}
