/// Writes JSON by hand where member order matters (a table in source order), pretty-printed like
/// `plutil -convert json -r`: two-space indent and `"key" : value`.
enum JSONText {
    /// A JSON object from members whose values are already JSON text; `{}` when there are none.
    ///
    /// Nested values written by this function are re-indented to `level`.
    static func object(_ members: [(key: String, value: String)], level: Int = 0) -> String {
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

    /// `string` as a JSON string literal: quotes, backslashes and control characters escaped, everything
    /// else (including non-ASCII) kept as UTF-8.
    ///
    /// - Complexity: O(n) in the UTF-8 length.
    static func quoted(_ string: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        bytes.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case UInt8(ascii: "\\"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case 0x0A: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case 0x0D: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case 0x09: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0x08: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "b")]
            case 0x0C: bytes += [UInt8(ascii: "\\"), UInt8(ascii: "f")]
            case 0x00..<0x20:
                bytes += Array("\\u00".utf8)
                bytes.append(hexDigits[Int(byte >> 4)])
                bytes.append(hexDigits[Int(byte & 0x0F)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
        return String(decoding: bytes, as: UTF8.self)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
