import BundleChanges
import Foundation
import HotStringsLint
import LinuxSystem
import StringsFormat

/// `hotstrings compile CATALOG OUTDIR`: a String Catalog as the `.lproj` files Xcode's build writes.
struct CompileCommand: Command {
    static let spec = CommandSpec(
        name: "compile",
        abstract: "Write a .xcstrings catalog as <lang>.lproj/T.strings and T.stringsdict.",
        discussion: """
            For each language of the catalog T.xcstrings, writes OUTDIR/<lang>.lproj/T.strings (UTF-8 text, \
            the keys whose text is one string, with their comments) and, when the language has plural or \
            device variations or substitutions, OUTDIR/<lang>.lproj/T.stringsdict (an XML property list), \
            as Xcode's build does, so a Linux build can ship a catalog. Every string unit is written whatever \
            its state; the source language's value of a key without a localization is the key itself. Files \
            already in OUTDIR with these names are replaced; nothing else there is touched. A language (or \
            sourceLanguage) that is not a language tag, such as '../x', is an error and nothing is written: \
            no file is ever written outside OUTDIR.
            """,
        arguments: [
            ArgumentSpec(name: "catalog", help: "The .xcstrings file to compile."),
            ArgumentSpec(name: "outdir", help: "The folder to write the .lproj folders into (created if missing)."),
        ],
        exitCodes: [
            (ExitCode.success, "Every language was written; the files written are listed on standard output."),
            (ExitCode.failure, "The catalog cannot be read, does not parse or has a language that is not a "
                + "language tag, or a file cannot be written."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var catalogPath: String
    var outputPath: String
    /// The catalog's table (`Settings` of `Settings.xcstrings`): the name of the files written.
    var table: String

    init(arguments: ParsedArguments) throws(UsageError) {
        catalogPath = arguments.positionals[0]
        outputPath = arguments.positionals[1]
        guard let table = BundleNames.catalogTable(ofFile: String(catalogPath.split(separator: "/").last ?? "")) else {
            throw UsageError("'\(catalogPath)' is not a .xcstrings file")
        }
        self.table = table
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let catalog: StringCatalog
        do {
            catalog = try Self.readCatalog(catalogPath)
        } catch {
            io.stderr.write(error.message + "\n")
            return ExitCode.failure
        }
        let languageErrors = CatalogLinter.languageDiagnostics(catalog)
        guard languageErrors.isEmpty else {
            for diagnostic in languageErrors {
                io.stderr.write(LintCommand.line(diagnostic, path: catalogPath) + "; nothing written\n")
            }
            return ExitCode.failure
        }
        for language in catalog.languages {
            let compiled = catalog.compiled(language: language)
            guard let folder = Self.folder(of: language, in: outputPath) else {
                io.stderr.write("\(DisplayText.escaped(catalogPath)): error: language "
                    + "'\(DisplayText.escaped(language))' is not a language tag; not written\n")
                return ExitCode.failure
            }
            var files = [("\(table).strings", LocalizationFileWriter.stringsText(compiled.strings))]
            if !compiled.rules.isEmpty {
                files.append(("\(table).stringsdict", LocalizationFileWriter.stringsdictXML(compiled.rules.entries)))
            }
            for (name, text) in files {
                let file = folder.appendingPathComponent(name)
                do throws(SystemError) {
                    try FileSystem.makeDirectories(atPath: folder.path, mode: 0o777)
                    try FileSystem.writeFileAtomically(Array(text.utf8), toPath: file.path)
                } catch {
                    io.printError("cannot write \(file.path): \(error.errno.message)")
                    return ExitCode.failure
                }
                io.stdout.write(file.path + "\n")
            }
        }
        return ExitCode.success
    }

    /// The `<language>.lproj` folder directly in `outputPath`, or `nil` when `language` is not a language tag or
    /// the folder would be anywhere else (checked here again, where files are written, whatever was checked
    /// before).
    static func folder(of language: String, in outputPath: String) -> URL? {
        guard let name = BundleNames.languageFolder(written: language) else { return nil }
        let output = URL(fileURLWithPath: outputPath).standardizedFileURL
        let folder = output.appendingPathComponent(name).standardizedFileURL
        guard folder.deletingLastPathComponent().path == output.path else { return nil }
        return URL(fileURLWithPath: outputPath).appendingPathComponent(name)
    }

    /// A catalog that could not be read, with its compiler-style message.
    struct CatalogError: Error {
        var message: String
    }

    /// Reads and parses a catalog, with errors as `path:line:column: error: reason`.
    static func readCatalog(_ path: String) throws(CatalogError) -> StringCatalog {
        let bytes: [UInt8]
        do throws(SystemError) {
            bytes = try FileSystem.readToEnd(atPath: path)
        } catch {
            throw CatalogError(message: "\(path): error: \(error.errno.message)")
        }
        do throws(ParseError) {
            return try StringCatalog.parse(bytes)
        } catch {
            throw CatalogError(message: error.formatted(file: path))
        }
    }
}
