import Foundation
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
            already in OUTDIR with these names are replaced; nothing else there is touched.
            """,
        arguments: [
            ArgumentSpec(name: "catalog", help: "The .xcstrings file to compile."),
            ArgumentSpec(name: "outdir", help: "The folder to write the .lproj folders into (created if missing)."),
        ],
        exitCodes: [
            (ExitCode.success, "Every language was written; the files written are listed on standard output."),
            (ExitCode.failure, "The catalog cannot be read or does not parse, or a file cannot be written."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    var catalogPath: String
    var outputPath: String

    init(arguments: ParsedArguments) throws(UsageError) {
        catalogPath = arguments.positionals[0]
        outputPath = arguments.positionals[1]
        guard catalogPath.hasSuffix(".xcstrings") else {
            throw UsageError("'\(catalogPath)' is not a .xcstrings file")
        }
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let catalog: StringCatalog
        do {
            catalog = try Self.readCatalog(catalogPath)
        } catch {
            io.stderr.write(error.message + "\n")
            return ExitCode.failure
        }
        let table = String((catalogPath.split(separator: "/").last ?? "").dropLast(".xcstrings".count))
        for language in catalog.languages {
            let compiled = catalog.compiled(language: language)
            let folder = URL(fileURLWithPath: outputPath).appendingPathComponent("\(language).lproj")
            var files = [("\(table).strings", LocalizationFileWriter.stringsText(compiled.strings))]
            if !compiled.rules.isEmpty {
                files.append(("\(table).stringsdict", LocalizationFileWriter.stringsdictXML(compiled.rules.entries)))
            }
            for (name, text) in files {
                let file = folder.appendingPathComponent(name)
                do {
                    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try Data(text.utf8).write(to: file, options: .atomic)
                } catch {
                    io.stderr.write("\(file.path): error: \(FileSystemError.reason(for: error))\n")
                    return ExitCode.failure
                }
                io.stdout.write(file.path + "\n")
            }
        }
        return ExitCode.success
    }

    /// A catalog that could not be read, with its compiler-style message.
    struct CatalogError: Error {
        var message: String
    }

    /// Reads and parses a catalog, with errors as `path:line:column: error: reason`.
    static func readCatalog(_ path: String) throws(CatalogError) -> StringCatalog {
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(ofFile: path)
        } catch {
            throw CatalogError(message: "\(path): error: \(error.reason)")
        }
        do throws(ParseError) {
            return try StringCatalog.parse(bytes)
        } catch {
            throw CatalogError(message: error.formatted(file: path))
        }
    }
}
