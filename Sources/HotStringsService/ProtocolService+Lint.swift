import HotStringsLint
import HotStringsProtocol
import StringsFormat

extension ProtocolService {
    /// The work of `lint`, for the `reads` worker: the checks `hotstrings lint` makes, over the whole bundle, in the
    /// shape of `lint --json` (`files`, `summary`), paths relative to the root.
    ///
    /// Every file of the bundle is read and parsed as it is on disk: off the core, which would otherwise keep every
    /// other client waiting for as long as the bundle takes.
    func lint() -> OffCoreWork {
        let developmentLanguage = store.developmentLanguage
        let root = environment.root
        return OffCoreWork(.reads) { _ in
            var report = Linter(developmentLanguage: developmentLanguage).lint(paths: [root])
            let prefix = root.hasSuffix("/") ? root : root + "/"
            for index in report.files.indices where report.files[index].path.hasPrefix(prefix) {
                report.files[index].path.removeFirst(prefix.count)
            }
            let document = try? JSONValue(parsing: Array(report.jsonText(pretty: false).utf8))
            return .answer(.success(.lint(LintAnswer(document: document ?? .null))))
        }
    }
}
