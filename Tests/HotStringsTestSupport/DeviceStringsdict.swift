/// A `.stringsdict` as Xcode writes it (tabs, sorted keys) whose `hint` varies by device
/// (`NSStringDeviceSpecificRuleType`, Apple's device-specific strings): the iPhone by plural (`one`, `other` of the
/// variable `n`), the Mac and `other` as texts. `plain` adds an entry `files` that does not vary by device.
package func deviceStringsdict(iphone: (one: String, other: String), mac: String, other: String,
                               plain: Bool = false) -> String {
    let devices: Member = ("NSStringDeviceSpecificRuleType", .dictionary([
        ("iphone", pluralEntry(valueType: "lld", [("one", iphone.one), ("other", iphone.other)])),
        ("mac", .string(mac)), ("other", .string(other)),
    ]))
    let entries: [Member] = (plain ? [("files", pluralEntry(valueType: "d", [("other", "%d files")]))] : [])
        + [("hint", .dictionary([devices]))]
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(xml(entries, depth: 1))</dict>
        </plist>

        """
}

private indirect enum Value {
    case string(String)
    case dictionary([Member])
}

private typealias Member = (name: String, value: Value)

/// An entry `%#@n@` whose variable `n` is a plural of `forms`.
private func pluralEntry(valueType: String, _ forms: [(String, String)]) -> Value {
    let rule = [("NSStringFormatSpecTypeKey", "NSStringPluralRuleType"), ("NSStringFormatValueTypeKey", valueType)]
        + forms
    return .dictionary([("NSStringLocalizedFormatKey", .string("%#@n@")),
                        ("n", .dictionary(rule.map { ($0.0, .string($0.1)) }))])
}

/// The members' `<key>` and value elements, one a line, indented by `depth` tabs.
private func xml(_ members: [Member], depth: Int) -> String {
    let indent = String(repeating: "\t", count: depth)
    return members.map { member in
        let key = "\(indent)<key>\(member.name)</key>\n"
        switch member.value {
        case .string(let text):
            return key + "\(indent)<string>\(text)</string>\n"
        case .dictionary(let inner):
            return key + "\(indent)<dict>\n" + xml(inner, depth: depth + 1) + "\(indent)</dict>\n"
        }
    }.joined()
}
