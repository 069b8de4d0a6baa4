import HotStringsProtocol
import StringsFormat

extension JSONValue {
    /// A property list of strings and dictionaries (what a `.stringsdict` entry is) as JSON: dictionaries become
    /// objects with their keys sorted, so the same entry is always the same bytes.
    package init(propertyList: PropertyListValue) {
        switch propertyList {
        case .dictionary(let members):
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, JSONValue(propertyList: $0.value)) })
        case .array(let elements): self = .array(elements.map(JSONValue.init(propertyList:)))
        case .string(let text): self = .string(text)
        case .integer(let value): self = .number(value)
        case .real(let value), .date(let value): self = .double(value)
        case .boolean(let value): self = .bool(value)
        case .data(let bytes): self = .array(bytes.map { .number(Int64($0)) })
        }
    }
}

extension TableContent {
    /// The rules of the keys in `keys` that have one, as a payload's `rules`.
    func rulePayload(for keys: some Sequence<String>) -> [(String, JSONValue)] {
        guard !rules.isEmpty else { return [] }
        return keys.compactMap { key in rules[key].map { (key, JSONValue(propertyList: $0.propertyList)) } }
    }
}
