extension StringsdictEditor {
    /// Sets `key`'s text on one device: the member `device` (`iphone`, `mac`, `other` …) of the entry's
    /// `NSStringDeviceSpecificRuleType` dictionary (Apple's device-specific strings), or with `form` the plural form
    /// of the device's own entry (a dictionary with `NSStringLocalizedFormatKey` and a plural variable; `variable`
    /// names it when it has more than one). Only that `<string>`'s bytes change. A missing device is added as a
    /// text, in its sorted place among the others (as a catalog's missing device case is); a missing form of a
    /// device's plural is added.
    ///
    /// - Throws: `EditError`: `.invalidValue` (NUL, empty key or device, unknown form), `.noSuchKey` when the key
    ///   is absent or has no `NSStringDeviceSpecificRuleType`, or with `form` when the device has no plural entry,
    ///   `.cannotEdit` for a device whose entry has variables set without `form`, `.unreadable`, `.cannotEdit` for
    ///   a binary property list.
    public static func setting(
        device: String, form: String?, variable: String?, of key: String, to value: String, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        try checkInput(key: key, value: value, form: form, variable: variable, device: device)
        var file = try EditablePropertyList(bytes)
        let shown = DisplayText.escaped(key, limit: 60)
        let deviceShown = DisplayText.escaped(device, limit: 20)
        guard let entry = file.member(key, in: file.root) else { throw .noSuchKey(key) }
        guard let devices = file.member("NSStringDeviceSpecificRuleType", in: entry),
              case .dictionary? = file.value(at: devices.path ?? []) else {
            throw EditError(.noSuchKey, "'\(shown)' has no device entries (NSStringDeviceSpecificRuleType)")
        }
        let existing = file.member(device, in: devices)
        let current = existing.flatMap { file.value(at: $0.path ?? []) }
        if let form {
            guard let existing, case .dictionary? = current else {
                throw EditError(.noSuchKey, "device '\(deviceShown)' of '\(shown)' has no plural entry")
            }
            try setForm(form, variable: variable, of: key, in: existing, to: value, file: &file)
        } else if let existing {
            guard case .string? = current else {
                throw EditError(.cannotEdit, "device '\(deviceShown)' of '\(shown)' has variables; set one form")
            }
            file.replace(existing.value, with: "<string>\(LocalizationFileWriter.escapedXML(value))</string>")
        } else {
            try file.insert(device, string: value, into: devices)
        }
        return file.bytes
    }
}
