import HotStringsProtocol
import StringsFormat

extension ProtocolService {
    /// The work of a `set` or `remove`, for the `writes` worker: it makes the edit in the bundle's files and answers
    /// with the file written (`"file"`, relative to the root). The store is not touched: the watcher sees the file's
    /// rename like an editor's save, so the edit reaches the subscribers as one `reload`, through the same door as
    /// every other change.
    ///
    /// The folder's lock is waited for until `lockTimeout` after the request reached the core (not after the edits
    /// queued before it), then the edit fails with `busy`.
    ///
    /// Every connection the front admits may edit: the daemon admits only its own user, root and `--allow-uid`
    /// users, who may write the bundle's files anyway; embedded mode serves its own process.
    func edit(_ edit: Edit) throws(ProtocolError) -> OffCoreWork {
        guard let editor = environment.bundleEditor else { throw .internal("this server does not edit its bundle") }
        let deadline = ContinuousClock.now + editor.lockTimeout
        return OffCoreWork(.writes) { shouldGiveUp in
            do throws(BundleEditor.Failure) {
                let file = try editor.apply(edit, lockDeadline: deadline, shouldGiveUp: shouldGiveUp)
                return .answer(.success(.edit(EditAnswer(file: file))))
            } catch {
                return .answer(.failure(ProtocolError(error)))
            }
        }
    }
}

extension ProtocolService {
    /// Answers `check`: the file a `set` would write and the problems of its format specifiers (`problems`: each
    /// `severity` and `message`, as `lint` reports them; an error is what `set` refuses), writing nothing. The page
    /// asks it as a translator types, so it has no grammar of its own.
    func check(_ edit: Edit) throws(ProtocolError) -> OffCoreWork {
        guard let editor = environment.bundleEditor else { throw .internal("this server does not edit its bundle") }
        // The development language's files are read and parsed: off the core, on the readers' worker.
        return OffCoreWork(.reads) { _ in
            do throws(BundleEditor.Failure) {
                let verdict = try editor.verdict(on: edit)
                let problems = verdict.messages.map { problem in
                    CheckAnswer.Problem(severity: problem.severity.rawValue, message: problem.message)
                }
                return .answer(.success(.check(CheckAnswer(file: verdict.file, problems: problems))))
            } catch {
                return .answer(.failure(ProtocolError(error)))
            }
        }
    }
}

extension ProtocolError {
    /// The answer to an edit that failed: `bad_request` for input no file may hold (and format specifiers that
    /// differ, a bundle managed by pull, a pseudo-language), `unsupported_language` listing the languages served,
    /// `not_found` for a missing key, `busy` for a folder locked past the deadline, `internal` for what the file
    /// system refused.
    package init(_ failure: BundleEditor.Failure) {
        switch failure.kind {
        case .invalidInput, .specifierMismatch, .cannotEdit, .readOnly: self.init(.badRequest, failure.message)
        case .busy: self.init(.busy, failure.message)
        case .unknownLanguage: self.init(.unsupportedLanguage, failure.message, available: failure.available)
        case .noSuchKey: self.init(.notFound, failure.message)
        case .cannotWrite: self.init(.internal, failure.message)
        }
    }
}
