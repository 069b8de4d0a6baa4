import Foundation
import HotStringsProtocol
import StringsFormat

/// The readable text of the client commands: events for `subscribe --format text`, `languages`, `status`.
///
/// Every name and message from the daemon (languages, tables, files, the root) is shown through `DisplayText`, so a
/// table named with an escape sequence or a file name holding a newline is printed as escapes, never obeyed.
enum ClientText {
    /// How many keys a reload line names per table before it counts the rest.
    static let keyLimit = 20

    /// The readable lines for one event line as the daemon sent it; a line that is not an event the daemon could
    /// have sent is returned as it is.
    static func event(line: some Collection<UInt8>) -> [String] {
        guard case .event(let name, _, _, let body)? = try? ServerMessage.decode(line),
              let event = try? ServerEvent(name: name, body: body) else {
            return [DisplayText.escaped(String(decoding: line, as: UTF8.self))]
        }
        switch event {
        case .snapshot(let tables):
            return ["snapshot: \(tables.count) \(tables.count == 1 ? "table" : "tables")"]
        case .reload(let changes):
            return changes.map(change)
        case .error(let file, let line, let column, let message):
            return ["error " + problem(FileProblem(file: file, line: line, column: column, message: message))]
        case .language(let language, let previous):
            return ["language \(language.map { escaped($0.identifier) } ?? "none") "
                + "(was \(previous.map { escaped($0.identifier) } ?? "none"))"]
        case .resync(let reason):
            return ["resync \(escaped(reason))"]
        case .unknown(let name, let body):
            return ["\(escaped(name)) \(body)"]
        }
    }

    /// `reload de/Localizable: ~changed +added -removed`, with `(created)` or `(deleted)` after the name.
    private static func change(_ change: ChangePayload) -> String {
        var text = "reload \(escaped(change.language.identifier))/\(escaped(change.table))"
        if change.kind != .updated { text += " (\(change.kind.rawValue))" }
        let keys = change.changed.map { "~" + key($0.0) } + change.added.map { "+" + key($0.0) }
            + change.removed.map { "-" + key($0) }
        guard !keys.isEmpty else { return text + ": no keys" }
        text += ": " + keys.prefix(keyLimit).joined(separator: " ")
        if keys.count > keyLimit { text += " … \(keys.count - keyLimit) more" }
        return text
    }

    /// `key` as is when it is a plain word, else quoted as JSON so spaces and line breaks stay visible.
    static func key(_ key: String) -> String {
        let isPlain = !key.isEmpty && key.unicodeScalars.allSatisfy { scalar in
            !scalar.properties.isWhitespace && scalar.value >= 0x20 && scalar != "\"" && scalar != "\\"
        }
        return isPlain ? key : JSONWriter.quoted(key)
    }

    /// The `languages` answer: one line per language with its tables and key counts, marking the selected and the
    /// development language.
    static func languages(_ answer: LanguagesAnswer) -> String {
        let rows = answer.languages.map { entry -> (String, String) in
            let tables = entry.tables.sorted { $0.key < $1.key }.map { name, keys in
                "\(DisplayText.escaped(name)) \(keys) \(keys == 1 ? "key" : "keys")"
            }
            var marks: [String] = []
            if entry.language == answer.selected { marks.append("selected") }
            if entry.language == answer.developmentLanguage { marks.append("development language") }
            var text = tables.isEmpty ? "no tables" : tables.joined(separator: ", ")
            if !marks.isEmpty { text += "  (" + marks.joined(separator: ", ") + ")" }
            return (escaped(entry.language), text)
        }
        guard !rows.isEmpty else { return "no languages\n" }
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
    }

    /// The `languages --resolve` chain: one line per language with the request it answers and why.
    static func chain(_ steps: [LanguageMatcher.Step]) -> String {
        let width = steps.map(\.language.identifier.count).max() ?? 0
        return steps.enumerated().map { index, step in
            let language = step.language.identifier.padding(toLength: width + 2, withPad: " ", startingAt: 0)
            let why: String
            switch step.source {
            case .base: why = "base internationalization"
            case .preference: why = "for \(step.request?.identifier ?? "?"): \(step.reason)"
            case .selected: why = "selected app language \(step.request?.identifier ?? "?"): \(step.reason)"
            case .development: why = "development language \(step.request?.identifier ?? "?"): \(step.reason)"
            }
            return "\(index + 1). \(language)\(why)\n"
        }.joined()
    }

    /// The `status` answer as labelled lines, then the last errors one per line.
    static func status(_ answer: StatusAnswer) -> String {
        var rows: [(String, String)] = [
            ("root", escaped(answer.root) + (answer.isRootPresent ? "" : " (missing)")),
            ("watched directories", String(answer.watchedDirectories)), ("files", String(answer.files)),
            ("tables", String(answer.tables)), ("subscribers", String(answer.subscribers)),
            ("connections", String(answer.connections)), ("uptime", String(format: "%.1f s", answer.uptime)),
            ("epoch", String(answer.position.epoch)), ("seq", String(answer.position.seq)),
        ]
        if let release = answer.release { rows.append(("release", escaped(release))) }
        if let info = answer.releaseInfo {
            if let sequence = info.sequence { rows.append(("sequence", String(sequence))) }
            rows.append(("signer", info.signer.map { "key \(escaped($0))" } ?? "not signed"))
            if let expires = info.expires { rows.append(("expires", escaped(expires))) }
        }
        if let pull = answer.pull { rows += pullRows(pull) }
        if let missing = answer.missing {
            rows.append(("missing keys", "\(missing.missing) missing, \(missing.fallback) fallback"))
        }
        if let url = answer.webURL { rows.append(("web", escaped(url))) }
        rows.append(("last errors", answer.lastErrors.isEmpty ? "none" : String(answer.lastErrors.count)))
        let width = rows.map(\.0.count).max() ?? 0
        var text = rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
        for error in answer.lastErrors { text += "  " + problem(error) + "\n" }
        return text
    }

    /// The rows of `status`'s `pull` member: the origin and interval, the last pull's time and result (the error
    /// for a failure), the next pull's time.
    private static func pullRows(_ pull: StatusAnswer.Pull) -> [(String, String)] {
        var rows: [(String, String)] = [("pull", "\(escaped(pull.url)) every \(String(format: "%g", pull.interval)) s")]
        if let time = pull.lastPull {
            var outcome = escaped(pull.result ?? "?").replacingOccurrences(of: "-", with: " ")
            if pull.failures > 0 { outcome += " (\(pull.failures) in a row)" }
            if let error = pull.error { outcome += ": " + problem(error) }
            rows.append(("last pull", "\(escaped(time)) \(outcome)"))
        } else {
            rows.append(("last pull", "none yet"))
        }
        if let time = pull.lastSuccess { rows.append(("last success", escaped(time))) }
        rows.append(("next pull", pull.isPulling ? "pulling now" : pull.nextPull.map(escaped) ?? "none"))
        return rows
    }

    /// `file:line:column: message` for an `error` event or a status error, leaving out unknown positions.
    private static func problem(_ problem: FileProblem) -> String {
        var location = escaped(problem.file)
        if let line = problem.line {
            location += ":\(line)"
            if let column = problem.column { location += ":\(column)" }
        }
        return "\(location): \(escaped(problem.message))"
    }

    /// `text`, escaped for a terminal.
    private static func escaped(_ text: String) -> String { DisplayText.escaped(text) }
}
