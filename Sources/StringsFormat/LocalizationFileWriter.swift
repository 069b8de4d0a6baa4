/// Writes `.strings` text and `.stringsdict` XML property lists that this package's parsers and Apple's read
/// back to the same values.
public enum LocalizationFileWriter {
    /// A `.strings` file in UTF-8: `/* comment */` before each entry that has one, then `"key" = "value";`.
    ///
    /// `"` and `\` are escaped, and so are newlines, tabs and carriage returns (`\n`, `\t`, `\r`) and other
    /// control characters (`\U001B`); a `*/` inside a comment is written `* /`, since a comment cannot hold it.
    public static func stringsText(_ table: StringsTable) -> String {
        var text = ""
        for entry in table.entries {
            if let comment = entry.comment {
                text += "/* \(comment.replacingAll("*/", with: "* /")) */\n"
            }
            text += "\"\(escapedStringsText(entry.key))\" = \"\(escapedStringsText(entry.value))\";\n"
            if entry.comment != nil { text += "\n" }
        }
        return text
    }

    /// A `.stringsdict` XML property list of `rules`, tab-indented with sorted keys like
    /// `PropertyListSerialization`'s.
    public static func stringsdictXML(_ rules: [String: StringsdictEntry]) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        append(.dictionary(rules.mapValues(\.propertyList)), indent: 0, to: &xml)
        xml += "</plist>\n"
        return xml
    }

    private static func append(_ value: PropertyListValue, indent: Int, to xml: inout String) {
        let tabs = String(repeating: "\t", count: indent)
        switch value {
        case .dictionary(let members):
            xml += "\(tabs)<dict>\n"
            for key in members.keys.sorted(by: utf8Order) {
                xml += "\(tabs)\t<key>\(escapedXML(key))</key>\n"
                append(members[key]!, indent: indent + 1, to: &xml)
            }
            xml += "\(tabs)</dict>\n"
        case .array(let elements):
            xml += "\(tabs)<array>\n"
            for element in elements { append(element, indent: indent + 1, to: &xml) }
            xml += "\(tabs)</array>\n"
        case .string(let text): xml += "\(tabs)<string>\(escapedXML(text))</string>\n"
        case .integer(let number): xml += "\(tabs)<integer>\(number)</integer>\n"
        case .real(let number): xml += "\(tabs)<real>\(number)</real>\n"
        case .boolean(let flag): xml += "\(tabs)<\(flag)/>\n"
        case .date, .data: preconditionFailure("a stringsdict entry holds no dates or data")
        }
    }

    /// Foundation sorts a dictionary's keys by their code units before writing them.
    private static func utf8Order(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    static func escapedXML(_ text: String) -> String {
        // A carriage return is written as a reference: XML readers turn a raw one into a line feed.
        let special: Set<UInt8> = [UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), 0x0D]
        guard text.utf8.contains(where: special.contains) else { return text }
        var output = ""
        for character in text.unicodeScalars {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\r": output += "&#13;"
            default: output.unicodeScalars.append(character)
            }
        }
        return output
    }

    static func escapedStringsText(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                output += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}
