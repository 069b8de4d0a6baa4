extension StringCatalogEditor {
    /// Sets `key`'s text on one device for `language`: the case `device` (`iphone`, `mac`, `other` …) of the
    /// localization's `variations.device`, as `{stringUnit: {state: translated, value}}`, or with `form` that case's
    /// `variations.plural[form]`. A plural that varies by device inside (Xcode's other nesting) has the device case
    /// of its form set; a form that does not vary by device is one text for every device and is set as such. With
    /// `form`, a `variable` naming a substitution sets that substitution's form, which every device shares. A
    /// missing device case (or form) is added. This is the device's text (or form) a `.stringsdict` rule compiled
    /// from the catalog shows under `NSStringDeviceSpecificRuleType`.
    ///
    /// - Throws: `EditError`: `.invalidValue` (NUL, empty key or device, unknown form), `.noSuchKey` when the key
    ///   has no device variations in `language` (or the device case no plural variations to set a form of),
    ///   `.cannotEdit` for a device case with variations set without `form`, `.unreadable`.
    public static func setting(
        device: String, form: String?, variable: String?, of key: String, language: String, to value: String,
        in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        try EditError.checkKey(key)
        try EditError.checkText(value, naming: "value")
        try EditError.checkText(device, naming: "device")
        guard !device.isEmpty else { throw EditError(.invalidValue, "the device is empty") }
        if let form { try checkForm(form) }
        var catalog = try read(bytes)
        var strings = try catalog.member("strings", orEmpty: false)
        let shown = DisplayText.escaped(key, limit: 60)
        let deviceShown = DisplayText.escaped(device, limit: 20)
        guard var entry = strings.member(key), var localizations = entry.member("localizations"),
              var localization = localizations.member(language) else {
            throw EditError(.noSuchKey, "no \(language) localization for the key '\(shown)'")
        }
        if let form, let variable, localization.member("substitutions")?.member(variable) != nil {
            return try setting(form: form, variable: variable, of: key, language: language, to: value, in: bytes)
        }
        let noDevices = EditError(.noSuchKey, "'\(shown)' has no device variations in \(language)")
        guard var variations = localization.member("variations") else { throw noDevices }
        if var devices = variations.member("device"), case .object = devices {
            var variant = devices.member(device) ?? .object([])
            if let form {
                guard let changed = variant.settingPluralForm(form, to: value) else {
                    throw EditError(.noSuchKey, "device '\(deviceShown)' of '\(shown)' in \(language) has no plural "
                                    + "variations")
                }
                variant = changed
            } else {
                guard variant.member("variations") == nil else {
                    throw EditError(.cannotEdit, "device '\(deviceShown)' of '\(shown)' in \(language) has "
                                    + "variations; set one form")
                }
                variant = variant.settingStringUnit(to: value)
            }
            devices.setMember(device, to: variant)
            variations.setMember("device", to: devices)
        } else if let form, var plural = variations.member("plural"), case .object(let forms) = plural,
                  forms.contains(where: { $0.1.member("variations")?.member("device") != nil }) {
            var formCase = plural.member(form) ?? .object([])
            if var inner = formCase.member("variations"), var devices = inner.member("device"), case .object = devices {
                devices.setMember(device, to: (devices.member(device) ?? .object([])).settingStringUnit(to: value))
                inner.setMember("device", to: devices)
                formCase.setMember("variations", to: inner)
            } else {
                formCase = formCase.settingStringUnit(to: value)
            }
            plural.setMember(form, to: formCase)
            variations.setMember("plural", to: plural)
        } else {
            throw noDevices
        }
        localization.setMember("variations", to: variations)
        localizations.setMember(language, to: localization)
        entry.setMember("localizations", to: localizations)
        strings.setMember(key, to: entry)
        catalog.setMember("strings", to: strings)
        return xcodeLayout(catalog)
    }
}
