import HotStringsProtocol
import StringsFormat

extension ProtocolService {
    /// Makes a `set` or `remove` in the bundle's files and answers with the file written (`"file"`, relative to the
    /// root). The store is not touched: the watcher sees the file's rename like an editor's save, so the edit
    /// reaches the subscribers as one `reload`, through the same door as every other change.
    ///
    /// Every connection the front admits may edit: the daemon admits only its own user, root and `--allow-uid`
    /// users, who may write the bundle's files anyway; embedded mode serves its own process.
    func edit(_ edit: BundleEditor.Edit) throws(ProtocolError) -> [(String, JSONValue)] {
        guard let editor = environment.bundleEditor else { throw .internal("this server does not edit its bundle") }
        do {
            return [("file", .string(try editor.apply(edit)))]
        } catch {
            throw ProtocolError(error)
        }
    }
}

extension ProtocolService {
    /// Answers `check`: the file a `set` would write and the problems of its format specifiers (`problems`: each
    /// `severity` and `message`, as `lint` reports them; an error is what `set` refuses), writing nothing. The page
    /// asks it as a translator types, so it has no grammar of its own.
    func check(_ edit: BundleEditor.Edit) throws(ProtocolError) -> [(String, JSONValue)] {
        guard let editor = environment.bundleEditor else { throw .internal("this server does not edit its bundle") }
        do {
            let verdict = try editor.verdict(on: edit)
            let problems = verdict.messages.map { problem in
                JSONValue.object([("severity", .string(problem.severity.rawValue)),
                                  ("message", .string(problem.message))])
            }
            return [("file", .string(verdict.file)), ("problems", .array(problems))]
        } catch {
            throw ProtocolError(error)
        }
    }
}

extension BundleEditor.Edit {
    /// The edit a `set` request asks for.
    package init(_ write: Write) {
        let change: Change = if let form = write.form {
            .form(form, variable: write.variable, value: write.value)
        } else {
            .value(write.value, comment: write.comment)
        }
        self.init(key: write.key, language: write.language, table: write.table, change: change,
                  device: write.device, createsLanguage: write.createLanguage, isForced: write.force)
    }
}

extension ProtocolError {
    /// The answer to an edit that failed: `bad_request` for input no file may hold (and format specifiers that
    /// differ), `unsupported_language` listing the languages served, `not_found` for a missing key, `internal` for
    /// what the file system refused.
    package init(_ failure: BundleEditor.Failure) {
        switch failure.kind {
        case .invalidInput, .specifierMismatch, .cannotEdit: self.init(.badRequest, failure.message)
        case .unknownLanguage: self.init(.unsupportedLanguage, failure.message, available: failure.available)
        case .noSuchKey: self.init(.notFound, failure.message)
        case .cannotWrite: self.init(.internal, failure.message)
        }
    }
}
