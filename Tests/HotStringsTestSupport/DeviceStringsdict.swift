/// A `.stringsdict` as Xcode writes it (tabs, sorted keys) whose `hint` varies by device
/// (`NSStringDeviceSpecificRuleType`, Apple's device-specific strings): the iPhone by plural (`one`, `other` of the
/// variable `n`), the Mac and `other` as texts. `plain` adds an entry `files` that does not vary by device.
package func deviceStringsdict(iphone: (one: String, other: String), mac: String, other: String,
                               plain: Bool = false) -> String {
    let files = !plain ? "" : """
        \t<key>files</key>
        \t<dict>
        \t\t<key>NSStringLocalizedFormatKey</key>
        \t\t<string>%#@n@</string>
        \t\t<key>n</key>
        \t\t<dict>
        \t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t<string>d</string>
        \t\t\t<key>other</key>
        \t\t\t<string>%d files</string>
        \t\t</dict>
        \t</dict>

        """
    return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(files)\t<key>hint</key>
        \t<dict>
        \t\t<key>NSStringDeviceSpecificRuleType</key>
        \t\t<dict>
        \t\t\t<key>iphone</key>
        \t\t\t<dict>
        \t\t\t\t<key>NSStringLocalizedFormatKey</key>
        \t\t\t\t<string>%#@n@</string>
        \t\t\t\t<key>n</key>
        \t\t\t\t<dict>
        \t\t\t\t\t<key>NSStringFormatSpecTypeKey</key>
        \t\t\t\t\t<string>NSStringPluralRuleType</string>
        \t\t\t\t\t<key>NSStringFormatValueTypeKey</key>
        \t\t\t\t\t<string>lld</string>
        \t\t\t\t\t<key>one</key>
        \t\t\t\t\t<string>\(iphone.one)</string>
        \t\t\t\t\t<key>other</key>
        \t\t\t\t\t<string>\(iphone.other)</string>
        \t\t\t\t</dict>
        \t\t\t</dict>
        \t\t\t<key>mac</key>
        \t\t\t<string>\(mac)</string>
        \t\t\t<key>other</key>
        \t\t\t<string>\(other)</string>
        \t\t</dict>
        \t</dict>
        </dict>
        </plist>

        """
}
