import HotStringsLint
import StringsFormat

extension ProtocolService {
    /// The answer to `lint`: the checks `hotstrings lint` makes, over the whole bundle, in the shape of
    /// `lint --json` (`files`, `summary`), paths relative to the root.
    ///
    /// The files are read as they are on disk, on the core's executor: a bundle is linted in milliseconds (the
    /// parsers are the watcher's), and what the page asks for is rare next to lookups.
    func lint() -> [(String, JSONValue)] {
        var report = Linter(developmentLanguage: store.developmentLanguage).lint(paths: [environment.root])
        let prefix = environment.root.hasSuffix("/") ? environment.root : environment.root + "/"
        for index in report.files.indices where report.files[index].path.hasPrefix(prefix) {
            report.files[index].path.removeFirst(prefix.count)
        }
        guard case .object(let members)? = try? JSONValue(parsing: Array(report.jsonText(pretty: false).utf8)) else {
            return [("files", .array([])), ("summary", .null)]
        }
        return members
    }
}
