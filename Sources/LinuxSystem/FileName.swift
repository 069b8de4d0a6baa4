/// File names as the kernel gives them: bytes, which need not be UTF-8.
package enum FileName {
    /// `bytes` as a `String` and whether they were valid UTF-8. A name that is not keeps its valid parts and shows
    /// each byte that is not part of a valid sequence as `\xFF`, so that a message can name the file; such a
    /// name is no path to the file (it does not round-trip), which is why the flag says so.
    package static func decode<Bytes: Collection>(_ bytes: Bytes) -> (name: String, isValidUTF8: Bool)
    where Bytes.Element == UInt8 {
        if let valid = String(validating: bytes, as: UTF8.self) { return (valid, true) }
        return (escapeInvalidBytes(Array(bytes)), false)
    }

    /// The escaped form of `bytes`: valid UTF-8 sequences as text, any other byte as `\xNN`.
    private static func escapeInvalidBytes(_ bytes: [UInt8]) -> String {
        var name = ""
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(bytes, at: index)
            if length > 0, let text = String(validating: bytes[index..<index + length], as: UTF8.self) {
                name += text
                index += length
            } else {
                name += "\\x" + String(bytes[index], radix: 16, uppercase: true).leftPadded(to: 2)
                index += 1
            }
        }
        return name
    }

    /// The length of the UTF-8 sequence its lead byte announces at `index`, when that many bytes are left.
    private static func sequenceLength(_ bytes: [UInt8], at index: Int) -> Int {
        let lead = bytes[index]
        let length = lead < 0x80 ? 1 : lead >> 5 == 0b110 ? 2 : lead >> 4 == 0b1110 ? 3 : lead >> 3 == 0b11110 ? 4 : 0
        return index + length <= bytes.count ? length : 0
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
