import HotStringsProtocol
import HotStringsService
import StringsFormat

/// `hotstrings set KEY VALUE --language L`: writes one key back into the bundle's files, through the daemon or, with
/// `--bundle`, on the files directly (the same `BundleEditor` either way).
struct SetCommand: Command {
    static let spec = CommandSpec(
        name: "set",
        abstract: "Write one key's value into the bundle's files (live, through the daemon).",
        discussion: """
            Writes KEY = VALUE where the key is served from for the language: the language folder's \
            <table>.strings (or, with --form, one plural form of its <table>.stringsdict) before a String \
            Catalog; a key only in <table>.xcstrings is set there. A new key goes into the folder's \
            <table>.strings unless the table is served only by catalogs. Only the value's bytes change: \
            encoding, comments, order and line endings stay. The file is replaced whole (temporary file, \
            fsync, rename), so the daemon serves the change as one reload. Prints the file written, relative \
            to the bundle. A value whose format specifiers take an argument the development language does not \
            give, or read one as another class, is refused with lint's error unless --force (lint's warnings \
            are written). See docs/GUIDE.md, "Edit live".
            """,
        arguments: [
            ArgumentSpec(name: "key", help: "The key."),
            ArgumentSpec(name: "value", help: "The value (of the plural form, with --form)."),
        ],
        options: [EditOptions.language, EditOptions.table, comment, form, variable, device, createsLanguage, forces]
            + EditOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The value was written; standard output names the file.",
            failure: "Refused (a bad key or value, an unknown language, differing format specifiers) or not "
                + "written (a full disk, a read-only folder); nothing was changed."
        )
    )

    static let comment: CommandOption<String?> = .optional(
        "comment", .text("text"), help: "A comment for translators, written above a new entry.")
    static let form: CommandOption<String?> = .optional(
        "form", .text("category"), help: "Set this plural form (zero, one, two, few, many, other) of a .stringsdict "
            + "entry.")
    static let variable: CommandOption<String?> = .optional(
        "variable", .text("name"), help: "The entry's variable, with --form, when it has more than one.")
    static let device: CommandOption<String?> = .optional(
        "device", .text("name"), help: "Set this device's text (iphone, ipad, mac, other …) of a .stringsdict "
            + "entry's NSStringDeviceSpecificRuleType or a String Catalog's device variations; with --form, that "
            + "device's plural form.")
    static let createsLanguage: CommandOption<Bool> = .flag(
        "create-language", help: "Create the language's folder (<language>.lproj) when the bundle has none.")
    static let forces: CommandOption<Bool> = .flag(
        "force", help: "Write a value whose format specifiers lint judges an error (a %d translated as %@).")

    var edit: Edit
    var target: EditOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 2 else {
            throw UsageError(arguments.positionals.count < 2 ? "give a key and a value" : "give one key and one value")
        }
        target = try EditOptions(arguments)
        let form = try arguments[Self.form]
        let variable = try arguments[Self.variable]
        if variable != nil && form == nil { throw UsageError("--variable names the variable of a --form") }
        let device = try arguments[Self.device]
        let comment = try arguments[Self.comment]
        if (form != nil || device != nil) && comment != nil {
            throw UsageError("--comment is for a new entry, not a --form or a --device")
        }
        edit = Edit(key: arguments.positionals[0], value: arguments.positionals[1], language: target.language,
                    table: target.table, form: form, variable: variable, device: device, comment: comment,
                    createsLanguage: try arguments[Self.createsLanguage], isForced: try arguments[Self.forces])
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        target.perform(edit, io: &io)
    }
}

/// `hotstrings remove KEY --language L`: removes one key's entry from where the language is served.
struct RemoveCommand: Command {
    static let spec = CommandSpec(
        name: "remove",
        abstract: "Remove one key from the bundle's files (live, through the daemon).",
        discussion: """
            Removes the key's entry, its comment and its line from where it is served for the language (the \
            folder's <table>.strings or <table>.stringsdict, else the String Catalog's localization), and \
            nothing of its neighbours. Prints the file written, relative to the bundle.
            """,
        arguments: [ArgumentSpec(name: "key", help: "The key.")],
        options: [EditOptions.language, EditOptions.table] + EditOptions.options,
        exitCodes: ClientOptions.exitCodes(
            success: "The entry was removed; standard output names the file.",
            failure: "The key is not there, the language unknown, or the file could not be written."
        )
    )

    var key: String
    var target: EditOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.count == 1 else { throw UsageError("give one key") }
        key = arguments.positionals[0]
        target = try EditOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        target.perform(Edit(key: key, language: target.language, table: target.table, change: .removal), io: &io)
    }
}

/// What `set` and `remove` share: the language and table, and whether they edit through the daemon or the files.
struct EditOptions {
    static let language: CommandOption<String> = .required(
        "language", short: "l", .text("lang"),
        help: "The language, exactly as `hotstrings languages` lists it (no fallback).")
    static let table: CommandOption<String> = ClientOptions.table
    static let bundle: CommandOption<String?> = .optional(
        "bundle", .text("path"), help: "Edit the bundle's files directly, with no daemon.")
    static let developmentLanguage: CommandOption<LanguageTag> = .value(
        "development-language", .language, default: LanguageTag("en")!,
        help: "With --bundle: the language whose format specifiers the others must match (the daemon uses its own).")

    /// The options after the command's own: where to edit, then the client's.
    static let options: [any OptionDeclaration] = [bundle, developmentLanguage] + ClientOptions.options

    var language: String
    var table: String
    var bundle: String?
    var developmentLanguage: LanguageTag
    var client: ClientOptions

    init(_ arguments: ParsedArguments) throws(UsageError) {
        language = try arguments[Self.language]
        table = try arguments[Self.table]
        bundle = try arguments[Self.bundle].map { path throws(UsageError) in try BundleOptions.bundle(path) }
        developmentLanguage = try arguments[Self.developmentLanguage]
        client = try ClientOptions(arguments)
    }

    /// Asks the daemon for `edit` (a `set`, or a `remove` for a removal), or with `--bundle` makes it on the files;
    /// prints the file written.
    func perform<Output, ErrorOutput>(_ edit: Edit, io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        if let bundle {
            do throws(BundleEditor.Failure) {
                var editor = try BundleEditor(root: bundle, developmentLanguage: developmentLanguage)
                // Whether the daemon serving the bundle makes the pseudo-languages is not known here: their folders
                // would not be served where it does, so they are never written.
                editor.servesPseudoLanguages = true
                let file = try editor.apply(edit)
                io.stdout.write(DisplayText.escaped(file) + "\n")
                return ExitCode.success
            } catch {
                return ClientOptions.report(ProtocolError(error), io: &io)
            }
        }
        let request: Request = if case .removal = edit.change {
            .remove(key: edit.key, language: edit.language, table: edit.table)
        } else {
            .set(edit)
        }
        switch client.send(request, as: EditAnswer.self, io: &io) {
        case .result(let answer, _):
            io.stdout.write(DisplayText.escaped(answer.file) + "\n")
            return ExitCode.success
        case .refused(let error):
            return ClientOptions.report(error, io: &io)
        case .failed(let code):
            return code
        }
    }
}
