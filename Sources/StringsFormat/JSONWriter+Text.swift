extension JSONWriter {
    /// `string` as a JSON string literal, escaped as `appendQuoted` escapes it.
    ///
    /// - Complexity: O(n) in the UTF-8 length.
    package static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        appendQuoted(string, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A pretty-printed JSON object, laid out like `plutil -convert json -r`: two-space indent and
    /// `"key" : value`, one member a line; `{}` when there are none. The CLI's `dump` and `table` print this.
    ///
    /// The values are already JSON text; an object written by this function for a member at `level + 1` nests
    /// at the right indent. Member names are escaped by `quoted`.
    package static func prettyObject(_ members: [(key: String, value: String)], level: Int = 0) -> String {
        guard !members.isEmpty else { return "{}" }
        let inner = String(repeating: "  ", count: level + 1)
        var text = "{\n"
        for (index, member) in members.enumerated() {
            text += inner
            text += quoted(member.key)
            text += " : "
            text += member.value
            text += index == members.count - 1 ? "\n" : ",\n"
        }
        text += String(repeating: "  ", count: level) + "}"
        return text
    }
}
