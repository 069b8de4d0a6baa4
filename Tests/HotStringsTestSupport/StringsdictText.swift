/// The text of small `.stringsdict` files for tests: the CLI's `dump` and the linter's checks.
package enum StringsdictText {
    /// An XML property list holding `entries` (fragments made by `entry`), one element a line.
    package static func plist(_ entries: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n" + entries
            + "</dict>\n</plist>\n"
    }

    /// An entry `key` whose format is `format`, with one plural variable `n` of `valueType` and its `forms`
    /// (category, text) in order.
    package static func entry(_ key: String, format: String = "%#@n@", valueType: String = "d",
                              _ forms: [(String, String)]) -> String {
        "<key>\(key)</key>\n<dict>\n<key>NSStringLocalizedFormatKey</key><string>\(format)</string>\n"
            + "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            + "<key>NSStringFormatValueTypeKey</key><string>\(valueType)</string>"
            + forms.map { "<key>\($0.0)</key><string>\($0.1)</string>" }.joined() + "</dict>\n</dict>\n"
    }
}
