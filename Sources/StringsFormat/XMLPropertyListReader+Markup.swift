/// The markup of an XML property list: tags, comments, processing instructions, the DOCTYPE and references.
extension XMLPropertyListReader {
    /// Skips whitespace, comments and processing instructions (and, before the top element, a DOCTYPE).
    mutating func skipMiscellany(allowDoctype: Bool) throws(ParseError) {
        while position < bytes.count {
            var index = position
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 || bytes[index] == 0x0A
                || bytes[index] == 0x0D { index += 1 }
            position = index
            guard position < bytes.count else { return }
            let byte = bytes[position]
            // Most markup here is an element's tag: one look at the byte after '<' tells.
            guard byte == UInt8(ascii: "<"), position + 1 < bytes.count,
                  bytes[position + 1] == UInt8(ascii: "!") || bytes[position + 1] == UInt8(ascii: "?") else { return }
            if hasPrefix("<!--") {
                try skip(past: "-->", from: position, what: "comment")
            } else if hasPrefix("<?") {
                try skip(past: "?>", from: position, what: "processing instruction")
            } else if hasPrefix("<!DOCTYPE") {
                guard allowDoctype else { throw error("a DOCTYPE after the top element", at: position) }
                let start = position
                while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
                    if bytes[position] == UInt8(ascii: "[") {
                        throw error("a DTD internal subset is not supported: entities it declares would not be "
                            + "expanded", at: position)
                    }
                    if bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                        try skipQuoted(from: start)
                    } else {
                        position += 1
                    }
                }
                guard position < bytes.count else { throw error("unterminated DOCTYPE", at: start) }
                position += 1
            } else {
                return
            }
        }
    }

    /// Reads `<name attr="…">`, `<name/>` or `</name>`; attributes are skipped.
    mutating func readTag() throws(ParseError) -> Tag {
        if let tag = knownTag() { return tag }
        let start = position
        guard position < bytes.count, bytes[position] == UInt8(ascii: "<") else {
            throw error("expected an element, found text", at: position)
        }
        position += 1
        let isClosing = position < bytes.count && bytes[position] == UInt8(ascii: "/")
        if isClosing { position += 1 }
        let nameStart = position
        while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
        guard position > nameStart else { throw error("expected an element name after '<'", at: start) }
        let written = UnsafeBufferPointer(rebasing: bytes[nameStart..<position])
        let name = Self.elementName(written)
        while true {
            guard position < bytes.count else {
                throw error("the input ends inside the tag <\(String(decoding: written, as: UTF8.self))", at: start)
            }
            switch bytes[position] {
            case UInt8(ascii: ">"):
                position += 1
                return Tag(name: name, isClosing: isClosing, isEmpty: false, offset: start, written: written)
            case UInt8(ascii: "/") where !isClosing && position + 1 < bytes.count
                && bytes[position + 1] == UInt8(ascii: ">"):
                position += 2
                return Tag(name: name, isClosing: false, isEmpty: true, offset: start, written: written)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                try skipQuoted(from: start)
            case UInt8(ascii: "<"):
                throw error("'<' inside the tag <\(String(decoding: written, as: UTF8.self))", at: position)
            default:
                position += 1
            }
        }
    }

    /// The tag at the position if it is one of those every property list is made of, recognized with one
    /// eight-byte load and moved past; `nil` leaves the reading to `readTag`. Each constant is the tag's bytes as a
    /// little-endian integer.
    @inline(__always)
    mutating func knownTag() -> Tag? {
        guard position + 8 <= bytes.count, let base = bytes.baseAddress else { return nil }
        let word = WordScan.word(base, at: position)
        func first(_ count: UInt64) -> UInt64 { word & ((1 << (count * 8)) - 1) }
        let name: ElementName
        let length: Int
        var isClosing = false
        var isEmpty = false
        switch word >> 8 & 0xFF {  // the byte after '<'
        case UInt64(UInt8(ascii: "k")) where first(5) == 0x3E79_656B_3C:  // <key>
            (name, length) = (.key, 5)
        case UInt64(UInt8(ascii: "s")) where word == 0x3E67_6E69_7274_733C:  // <string>
            (name, length) = (.string, 8)
        case UInt64(UInt8(ascii: "d")) where first(6) == 0x3E74_6369_643C:  // <dict>
            (name, length) = (.dict, 6)
        case UInt64(UInt8(ascii: "/")) where first(7) == 0x3E_7463_6964_2F3C:  // </dict>
            (name, length, isClosing) = (.dict, 7, true)
        case UInt64(UInt8(ascii: "/")) where word == 0x3E79_6172_7261_2F3C:  // </array>
            (name, length, isClosing) = (.array, 8, true)
        case UInt64(UInt8(ascii: "a")) where first(7) == 0x3E_7961_7272_613C:  // <array>
            (name, length) = (.array, 7)
        case UInt64(UInt8(ascii: "t")) where first(7) == 0x3E_2F65_7572_743C:  // <true/>
            (name, length, isEmpty) = (.true, 7, true)
        case UInt64(UInt8(ascii: "f")) where word == 0x3E2F_6573_6C61_663C:  // <false/>
            (name, length, isEmpty) = (.false, 8, true)
        default:
            return nil
        }
        let nameStart = position + (isClosing ? 2 : 1)
        let nameEnd = position + length - (isEmpty ? 2 : 1)
        let tag = Tag(name: name, isClosing: isClosing, isEmpty: isEmpty, offset: position,
                      written: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]))
        position += length
        return tag
    }

    /// The length of `</name>` if it is at the position, else `nil`; the closing tags of keys and strings, which
    /// end almost every text, are recognized with one eight-byte load (the constants are their bytes as a
    /// little-endian integer).
    @inline(__always)
    func closingTagLength(_ name: ElementName) -> Int? {
        if position + 9 <= bytes.count, let base = bytes.baseAddress {
            let word = WordScan.word(base, at: position)
            switch name {
            case .key: return word & 0xFFFF_FFFF_FFFF == 0x3E79_656B_2F3C ? 6 : nil  // </key>
            case .string: return word == 0x676E_6972_7473_2F3C && base[position + 8] == UInt8(ascii: ">") ? 9 : nil
            default: break
            }
        }
        guard name.closingTag.utf8CodeUnitCount > 0, hasPrefix(name.closingTag) else { return nil }
        return name.closingTag.utf8CodeUnitCount
    }

    /// Reads character data up to `</name>`, expanding entities and CDATA sections.
    mutating func readText(closing name: ElementName) throws(ParseError) -> String {
        let start = position
        position = markupOrReference(from: position)
        // Most texts are one run of characters up to their closing tag: made into a string straight from the
        // input, without a copy in between (or no string at all for the names every `.stringsdict` repeats).
        if position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
            let end = position
            if let length = closingTagLength(name) {
                position += length
            } else {
                let tag = try readTag()
                guard tag.name == name else {
                    throw error("\(tag) inside <\(name)> (text cannot hold elements)", at: end)
                }
            }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            return Self.wellKnownString(text) ?? String(decoding: text, as: UTF8.self)
        }
        var text = Array(UnsafeBufferPointer(rebasing: bytes[start..<position]))
        while true {
            let chunkStart = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "<"), bytes[position] != UInt8(ascii: "&") {
                position += 1
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[chunkStart..<position]))
            guard position < bytes.count else { throw error("the input ends inside <\(name)>", at: start) }
            if bytes[position] == UInt8(ascii: "&") {
                try readReference(into: &text)
            } else if hasPrefix("<![CDATA[") {
                let dataStart = position + 9
                try skip(past: "]]>", from: position, what: "CDATA section")
                text.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[dataStart..<(position - 3)]))
            } else if hasPrefix("<!--") {
                try skip(past: "-->", from: position, what: "comment")
            } else {
                let tagOffset = position
                let tag = try readTag()
                guard tag.isClosing, tag.name == name else {
                    throw error("\(tag) inside <\(name)> (text cannot hold elements)", at: tagOffset)
                }
                return String(decoding: text, as: UTF8.self)
            }
        }
    }

    /// Expands `&amp; &lt; &gt; &quot; &apos; &#N; &#xH;`; any other reference is an error.
    mutating func readReference(into text: inout [UInt8]) throws(ParseError) {
        let start = position
        var end = position + 1
        while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
            throw error("'&' that does not start a reference (write &amp;)", at: start)
        }
        let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)
        position = end + 1
        switch name {
        case "amp": text.append(UInt8(ascii: "&"))
        case "lt": text.append(UInt8(ascii: "<"))
        case "gt": text.append(UInt8(ascii: ">"))
        case "quot": text.append(UInt8(ascii: "\""))
        case "apos": text.append(UInt8(ascii: "'"))
        default:
            var value: UInt32?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                value = UInt32(name.dropFirst(2), radix: 16)
            } else if name.hasPrefix("#") {
                value = UInt32(name.dropFirst(1), radix: 10)
            } else {
                throw error("unknown entity &\(name); (only &amp; &lt; &gt; &quot; &apos; and numeric references "
                    + "are expanded)", at: start)
            }
            guard let scalar = value, scalar != 0, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
                throw error("&\(name); is not a Unicode scalar", at: start)
            }
            UTF8Validation.append(scalar: scalar, to: &text)
        }
    }

    mutating func skipQuoted(from start: Int) throws(ParseError) {
        let quote = bytes[position]
        position += 1
        while position < bytes.count, bytes[position] != quote { position += 1 }
        guard position < bytes.count else { throw error("unterminated quoted value", at: start) }
        position += 1
    }

    mutating func skip(past terminator: StaticString, from start: Int, what: String) throws(ParseError) {
        let end = terminator.utf8Start
        let length = terminator.utf8CodeUnitCount
        while position + length <= bytes.count {
            if bytes[position] == end[0], (0..<length).allSatisfy({ bytes[position + $0] == end[$0] }) {
                position += length
                return
            }
            position += 1
        }
        throw error("unterminated \(what)", at: start)
    }

    /// The offset of the first '<' or '&' at or after `offset`, or the end of the input: eight bytes at a time.
    func markupOrReference(from offset: Int) -> Int {
        guard let base = bytes.baseAddress else { return offset }
        var index = offset
        while index + WordScan.width <= bytes.count {
            let word = WordScan.word(base, at: index)
            if WordScan.contains(word, UInt8(ascii: "<")) || WordScan.contains(word, UInt8(ascii: "&")) { break }
            index += WordScan.width
        }
        while index < bytes.count, base[index] != UInt8(ascii: "<"), base[index] != UInt8(ascii: "&") { index += 1 }
        return index
    }

    /// The string `text` spells if it is one of the names of `.stringsdict` rules, which every entry repeats: a
    /// string literal needs no memory of its own (nothing to allocate, copy, check or free).
    @inline(__always)
    static func wellKnownString(_ text: UnsafeBufferPointer<UInt8>) -> String? {
        // All of them start with "NSString" and are longer than a string stored inline (15 bytes).
        guard text.count >= 22, text[0] == UInt8(ascii: "N") else { return nil }
        func spells(_ known: StaticString) -> Bool { Self.equal(text, known) }
        switch text.count {
        case 22: return spells("NSStringPluralRuleType") ? "NSStringPluralRuleType" : nil
        case 25: return spells("NSStringFormatSpecTypeKey") ? "NSStringFormatSpecTypeKey" : nil
        case 26:
            if spells("NSStringLocalizedFormatKey") { return "NSStringLocalizedFormatKey" }
            return spells("NSStringFormatValueTypeKey") ? "NSStringFormatValueTypeKey" : nil
        case 29: return spells("NSStringVariableWidthRuleType") ? "NSStringVariableWidthRuleType" : nil
        case 30: return spells("NSStringDeviceSpecificRuleType") ? "NSStringDeviceSpecificRuleType" : nil
        default: return nil
        }
    }

    /// Whether `bytes` are exactly `known`: a plain loop, shorter than a call for these few bytes.
    @inline(__always)
    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ known: StaticString) -> Bool {
        guard bytes.count == known.utf8CodeUnitCount else { return false }
        let expected = known.utf8Start
        for index in 0..<bytes.count where bytes[index] != expected[index] { return false }
        return true
    }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let length = prefix.utf8CodeUnitCount
        guard position + length <= bytes.count else { return false }
        return Self.equal(UnsafeBufferPointer(rebasing: bytes[position..<(position + length)]), prefix)
    }

    /// The name of an element: one of the property list's own, else decoded from the bytes.
    static func elementName(_ name: UnsafeBufferPointer<UInt8>) -> ElementName {
        func matches(_ known: StaticString) -> Bool { equal(name, known) }
        let known: ElementName?
        switch (name.count, name.first) {
        case (3, UInt8(ascii: "k")): known = matches("key") ? .key : nil
        case (4, UInt8(ascii: "d")): known = matches("dict") ? .dict : matches("date") ? .date : matches("data") ? .data : nil
        case (4, UInt8(ascii: "r")): known = matches("real") ? .real : nil
        case (4, UInt8(ascii: "t")): known = matches("true") ? .true : nil
        case (5, UInt8(ascii: "a")): known = matches("array") ? .array : nil
        case (5, UInt8(ascii: "f")): known = matches("false") ? .false : nil
        case (5, UInt8(ascii: "p")): known = matches("plist") ? .plist : nil
        case (6, UInt8(ascii: "s")): known = matches("string") ? .string : nil
        case (7, UInt8(ascii: "i")): known = matches("integer") ? .integer : nil
        default: known = nil
        }
        return known ?? .other
    }

    func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."),
             UInt8(ascii: ":"):
            true
        default:
            byte >= 0x80
        }
    }

    func error(_ reason: String, at offset: Int) -> ParseError {
        let (line, column) = ParseError.location(of: offset, in: bytes)
        return ParseError("XML property list: \(reason)", line: line, column: column, byteOffset: offset)
    }
}
