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

    /// The readable lines for one event line as the daemon sent it; a line that is not an event is
    /// returned as it is.
    static func event(line: some Collection<UInt8>) -> [String] {
        guard let value = try? JSONValue(parsing: line), let name = value["event"]?.stringValue else {
            return [DisplayText.escaped(String(decoding: line, as: UTF8.self))]
        }
        switch name {
        case "snapshot":
            let count = value["tables"]?.arrayValue?.count ?? 0
            return ["snapshot: \(count) \(count == 1 ? "table" : "tables")"]
        case "reload":
            return (value["changes"]?.arrayValue ?? []).map(change)
        case "error":
            return ["error " + problem(value)]
        case "language":
            return ["language \(string(value["language"]) ?? "none") (was \(string(value["previous"]) ?? "none"))"]
        case "resync":
            return ["resync \(string(value["reason"]) ?? "")"]
        default:
            let body = (value.objectMembers ?? []).filter { !["event", "epoch", "seq"].contains($0.0) }
            return ["\(DisplayText.escaped(name)) \(JSONValue.object(body))"]
        }
    }

    /// `reload de/Localizable: ~changed +added -removed`, with `(created)` or `(deleted)` after the name.
    private static func change(_ change: JSONValue) -> String {
        var text = "reload \(string(change["language"]) ?? "?")/\(string(change["table"]) ?? "?")"
        if let kind = string(change["kind"]), kind != "updated" { text += " (\(kind))" }
        let keys = memberNames(change["changed"]).map { "~" + key($0) }
            + memberNames(change["added"]).map { "+" + key($0) }
            + (change["removed"]?.arrayValue ?? []).compactMap(\.stringValue).map { "-" + key($0) }
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

    /// The `languages` result: one line per language with its tables and key counts, marking the selected
    /// and the development language.
    static func languages(_ result: JSONValue) -> String {
        let selected = string(result["selected"])
        let development = string(result["developmentLanguage"])
        let rows = (result["languages"]?.arrayValue ?? []).map { entry -> (String, String) in
            let language = string(entry["language"]) ?? "?"
            let tables = (entry["tables"]?.objectMembers ?? []).map { name, count in
                let keys = count.int64Value ?? 0
                return "\(DisplayText.escaped(name)) \(keys) \(keys == 1 ? "key" : "keys")"
            }
            var marks: [String] = []
            if language == selected { marks.append("selected") }
            if language == development { marks.append("development language") }
            var text = tables.isEmpty ? "no tables" : tables.joined(separator: ", ")
            if !marks.isEmpty { text += "  (" + marks.joined(separator: ", ") + ")" }
            return (language, text)
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

    /// The `status` result as labelled lines, then the last errors one per line.
    static func status(_ result: JSONValue) -> String {
        var rows: [(String, String)] = []
        if let root = string(result["root"]) {
            rows.append(("root", root + (result["rootPresent"]?.boolValue == false ? " (missing)" : "")))
        }
        for (label, name) in [("watched directories", "watchedDirectories"), ("files", "files"),
                              ("tables", "tables"), ("subscribers", "subscribers"), ("connections", "connections")] {
            if let count = result[name]?.int64Value { rows.append((label, String(count))) }
        }
        if case .double(let seconds)? = result["uptime"] {
            rows.append(("uptime", String(format: "%.1f s", seconds)))
        } else if let seconds = result["uptime"]?.int64Value {
            rows.append(("uptime", "\(seconds) s"))
        }
        if let epoch = result["epoch"]?.int64Value, let seq = result["seq"]?.int64Value {
            rows.append(("epoch", String(epoch)))
            rows.append(("seq", String(seq)))
        }
        if let release = string(result["release"]) { rows.append(("release", release)) }
        if let info = result["releaseInfo"], info.objectMembers != nil {
            if let sequence = info["sequence"]?.int64Value { rows.append(("sequence", String(sequence))) }
            rows.append(("signer", string(info["signer"]).map { "key \($0)" } ?? "not signed"))
            if let expires = string(info["expires"]) { rows.append(("expires", expires)) }
        }
        if let pull = result["pull"], pull.objectMembers != nil { rows += pullRows(pull) }
        if let missing = result["missing"], let keys = missing["missing"]?.int64Value {
            rows.append(("missing keys", "\(keys) missing, \(missing["fallback"]?.int64Value ?? 0) fallback"))
        }
        if let url = string(result["web"]?["url"]) { rows.append(("web", url)) }
        let errors = result["lastErrors"]?.arrayValue ?? []
        rows.append(("last errors", errors.isEmpty ? "none" : String(errors.count)))
        let width = rows.map(\.0.count).max() ?? 0
        var text = rows.map { $0.0.padding(toLength: width + 2, withPad: " ", startingAt: 0) + $0.1 + "\n" }.joined()
        for error in errors { text += "  " + problem(error) + "\n" }
        return text
    }

    /// The rows of `status`'s `pull` member: the origin and interval, the last pull's time and result (the error
    /// for a failure), the next pull's time.
    private static func pullRows(_ pull: JSONValue) -> [(String, String)] {
        var rows: [(String, String)] = []
        var origin = string(pull["url"]) ?? "?"
        if case .double(let seconds)? = pull["interval"] {
            origin += " every \(String(format: "%g", seconds)) s"
        } else if let seconds = pull["interval"]?.int64Value {
            origin += " every \(seconds) s"
        }
        rows.append(("pull", origin))
        if let time = string(pull["lastPull"]) {
            var outcome = (string(pull["result"]) ?? "?").replacingOccurrences(of: "-", with: " ")
            if let failures = pull["failures"]?.int64Value, failures > 0 { outcome += " (\(failures) in a row)" }
            if let error = pull["error"], error.objectMembers != nil { outcome += ": " + problem(error) }
            rows.append(("last pull", "\(time) \(outcome)"))
        } else {
            rows.append(("last pull", "none yet"))
        }
        if let time = string(pull["lastSuccess"]) { rows.append(("last success", time)) }
        let state = string(pull["state"])
        rows.append(("next pull", state == "pulling" ? "pulling now" : string(pull["nextPull"]) ?? "none"))
        return rows
    }

    /// `file:line:column: message` for an `error` event or a status error, leaving out unknown positions.
    private static func problem(_ value: JSONValue) -> String {
        var location = string(value["file"]) ?? "?"
        if let line = value["line"]?.int64Value {
            location += ":\(line)"
            if let column = value["column"]?.int64Value { location += ":\(column)" }
        }
        return "\(location): \(string(value["message"]) ?? "")"
    }

    /// The string `value` holds, escaped for a terminal.
    private static func string(_ value: JSONValue?) -> String? { value?.stringValue.map { DisplayText.escaped($0) } }

    private static func memberNames(_ value: JSONValue?) -> [String] { (value?.objectMembers ?? []).map(\.0) }
}
