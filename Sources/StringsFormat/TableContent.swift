/// The value of one key: a plain string, or a format rule whose text depends on the arguments.
public enum LocalizedValue: Sendable, Hashable {
    /// A `.strings` value (or a catalog's plain string unit).
    case string(String)
    /// A `.stringsdict` entry (or a catalog's variations): plural, width and device variables.
    case rule(StringsdictEntry)

    /// The text of a plain string; for a rule, its format with every variable replaced by the text it picks for
    /// `other` (the widest width, the `other` device), which a client that knows only strings is given and can
    /// still format with `String(format:)`: `%#@files@` with `other` = `%d files` reads `%d files`.
    public var plainText: String {
        switch self {
        case .string(let text): text
        case .rule(let entry): entry.plainText
        }
    }
}

extension StringsdictEntry {
    /// The format with each `%#@name@` replaced by its `other` text (nested variables too, up to
    /// `maximumNesting` levels). The unpositioned specifiers of a positioned variable's text take its position
    /// (`%2$#@n@` with `other` = `%d files` reads `%2$d files`), so the plain text formats with the same
    /// arguments as the entry. An entry with devices on top gives the text of its `other` device (else the
    /// first).
    ///
    /// An entry read from a file expands to at most `maximumExpandedSize` bytes (`checkExpansionBounds()`); one
    /// made in code that expands further keeps its remaining references as written once that many bytes of
    /// texts were expanded, so the plain text stays bounded whatever the entry.
    public var plainText: String {
        if !devices.isEmpty {
            return (devices["other"] ?? devices.min { $0.key < $1.key }!.value).plainText
        }
        var budget = Self.maximumExpandedSize
        return expandingVariables(in: format, position: nil, depth: 0, budget: &budget)
    }

    private func expandingVariables(in text: String, position: Int?, depth: Int, budget: inout Int) -> String {
        budget -= text.utf8.count
        guard depth <= Self.maximumNesting, text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        var copied = 0
        for (specifier, written) in FormatSpecifier.all(in: text) {
            output += bytes[copied..<specifier.range.lowerBound]
            copied = specifier.range.upperBound
            switch specifier.kind {
            case .variable(let name):
                guard budget >= 0 else {
                    output += written.utf8
                    continue
                }
                let otherText = otherText(of: String(decoding: bytes[name], as: UTF8.self))
                output += expandingVariables(in: otherText, position: specifier.position ?? position,
                                             depth: depth + 1, budget: &budget).utf8
            case .conversion where specifier.position == nil:
                // An ordinary specifier: give it the variable's position when it has none of its own.
                output += "%".utf8
                if let position { output += "\(position)$".utf8 }
                output += written.utf8.dropFirst()
            case .conversion, .percent, .unknown, .incomplete, .unterminatedVariable:
                output += written.utf8
            }
        }
        output += bytes[copied...]
        return String(decoding: output, as: UTF8.self)
    }

    private func otherText(of name: String) -> String {
        switch variables[name] {
        case .plural(_, let forms)?: forms[.other] ?? forms.sorted { $0.key < $1.key }.last?.value ?? ""
        case .variableWidth(let texts)?: texts.max { $0.key < $1.key }?.value ?? ""
        case .deviceSpecific(let texts)?: texts["other"] ?? texts.min { $0.key < $1.key }?.value ?? ""
        case nil: ""
        }
    }
}

/// What one table holds in one language: plain strings and format rules, as a folder's `T.strings` and
/// `T.stringsdict` together (or one language of a String Catalog) hold it.
///
/// A key that has a rule is a rule, whatever `strings` says, as on Apple platforms where the `.stringsdict`
/// entry wins over the `.strings` one.
public struct TableContent: Sendable, Equatable {
    /// The plain strings, in source order.
    public var strings: StringsTable
    /// The format rules.
    public var rules: StringsdictTable

    /// Creates a table's content.
    public init(strings: StringsTable = StringsTable(), rules: StringsdictTable = StringsdictTable()) {
        self.strings = strings
        self.rules = rules
    }

    /// The content of several files of one table (a `.strings` and a `.stringsdict`): the strings of the first
    /// that has any, and the rules of all, a later file's rule winning for a key that two have.
    public static func union(_ contents: [TableContent]) -> TableContent {
        guard contents.count > 1 else { return contents.first ?? TableContent() }
        var union = TableContent(strings: contents.first { !$0.strings.isEmpty }?.strings ?? StringsTable())
        for content in contents {
            for (key, entry) in content.rules.entries { union.rules[key] = entry }
        }
        return union
    }

    /// The value of `key`: its rule when it has one, else its string.
    /// - Complexity: O(1) on average.
    public subscript(key: String) -> LocalizedValue? {
        if !rules.isEmpty, let rule = rules[key] { return .rule(rule) }
        return strings[key].map(LocalizedValue.string)
    }

    /// The number of distinct keys.
    public var count: Int {
        guard !rules.isEmpty else { return strings.count }
        return strings.count + rules.entries.keys.count { strings[$0] == nil }
    }

    /// Whether the table has no keys.
    public var isEmpty: Bool { strings.isEmpty && rules.isEmpty }

    /// Every key with its value: the strings' keys in source order (a rule in place of a string for the keys that
    /// have one), then the keys that only have a rule, sorted.
    public var entries: [(key: String, value: LocalizedValue)] {
        var entries = strings.entries.map { entry in
            (key: entry.key, value: rules[entry.key].map(LocalizedValue.rule) ?? .string(entry.value))
        }
        guard !rules.isEmpty else { return entries }
        for key in rules.keys where strings[key] == nil { entries.append((key, .rule(rules[key]!))) }
        return entries
    }

    /// The keys, in the order of `entries`.
    public var keys: [String] {
        guard !rules.isEmpty else { return strings.keys }
        return strings.keys + rules.keys.filter { strings[$0] == nil }
    }

    /// Whether this is a copy of `other` (the same value again, as a catalog's table that no save touched is): its
    /// strings share their buffers, and its rules compare at the cost of their pointers when they share theirs.
    /// False says nothing: two tables made apart may still hold the same entries.
    package func isCopy(of other: TableContent) -> Bool {
        strings.sharesStorage(with: other.strings) && rules == other.rules
    }

    /// What changed from `old`: keys added and keys whose value changed (with their new values), keys removed.
    ///
    /// Plain strings come first, in source order (compared on their bytes, as `StringsTable.differences` does);
    /// then the keys that have a rule in either table, sorted. A key that turns from a string into a rule (or
    /// back) is changed even when the texts match.
    /// - Complexity: O(n + m) on average.
    public func differences(from old: TableContent)
        -> (added: [(key: String, value: LocalizedValue)], changed: [(key: String, value: LocalizedValue)],
            removed: [String])
    {
        if isCopy(of: old) { return ([], [], []) }
        let plain = strings.differences(from: old.strings)
        guard !rules.isEmpty || !old.rules.isEmpty else {
            return (plain.added.map { ($0.key, .string($0.value)) }, plain.changed.map { ($0.key, .string($0.value)) },
                    plain.removed)
        }
        func hasRule(_ key: String) -> Bool { rules.entries[key] != nil || old.rules.entries[key] != nil }
        var added = plain.added.filter { !hasRule($0.key) }
            .map { (key: $0.key, value: LocalizedValue.string($0.value)) }
        var changed = plain.changed.filter { !hasRule($0.key) }
            .map { (key: $0.key, value: LocalizedValue.string($0.value)) }
        var removed = plain.removed.filter { !hasRule($0) }
        // The same rules (a catalog's text edited: its rules are the last version's): no key with a rule changed.
        guard rules != old.rules else { return (added, changed, removed) }
        let ruleKeys = Set(rules.entries.keys).union(old.rules.entries.keys)
        for key in ruleKeys.sorted() {
            switch (old[key], self[key]) {
            case (nil, let new?): added.append((key, new))
            case (.some, nil): removed.append(key)
            case (let before?, let after?) where before != after: changed.append((key, after))
            default: break
            }
        }
        return (added, changed, removed)
    }
}
