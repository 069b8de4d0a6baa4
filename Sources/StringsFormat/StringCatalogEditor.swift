/// Edits a `.xcstrings` string catalog and writes it back in Xcode's own layout.
///
/// The catalog is read with the package's JSON reader into a `JSONValue` (members in file order), changed, and
/// written with `xcodeLayout`, so a catalog Xcode wrote changes only where it was edited.
public enum StringCatalogEditor {
    /// Sets `localizations[language].stringUnit` = `{state: translated, value}` for `key` (adds the key if
    /// absent, with `extractionState` `manual` as Xcode marks a key added by hand; `comment` sets the key's
    /// comment).
    ///
    /// - Throws: `EditError`: `.invalidValue` for an empty key or a NUL character, `.unreadable` for a file that
    ///   is not JSON, `.cannotEdit` for a catalog of another shape or a localization with variations (plural or
    ///   device forms, which one value cannot replace).
    public static func setting(
        _ key: String, language: String, to value: String, comment: String? = nil, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        try EditError.checkKey(key)
        try EditError.checkText(language, naming: "language")
        try EditError.checkText(value, naming: "value")
        if let comment { try EditError.checkText(comment, naming: "comment") }
        var catalog = try read(bytes)
        var strings = try catalog.member("strings", orEmpty: true)
        var entry = strings.member(key) ?? .object([(String, JSONValue)]())
        if strings.member(key) == nil { entry.setMember("extractionState", to: .string("manual")) }
        if let comment { entry.setMember("comment", to: .string(comment)) }
        var localizations = entry.member("localizations") ?? .object([(String, JSONValue)]())
        var localization = localizations.member(language) ?? .object([(String, JSONValue)]())
        guard case .object = localization, case .object = localizations, case .object = entry else {
            throw EditError(.cannotEdit, "the entry for '\(DisplayText.escaped(key, limit: 60))' is not an object")
        }
        guard localization.member("variations") == nil else {
            throw EditError(.cannotEdit, "'\(DisplayText.escaped(key, limit: 60))' has variations in \(language); "
                            + "one value cannot replace them")
        }
        localization = localization.settingStringUnit(to: value)
        localizations.setMember(language, to: localization)
        entry.setMember("localizations", to: localizations)
        strings.setMember(key, to: entry)
        catalog.setMember("strings", to: strings)
        return xcodeLayout(catalog)
    }

    /// Sets one plural form of `key`'s localization for `language`: `variations.plural[form]`, or, when `variable`
    /// names one of its `substitutions`, that substitution's `variations.plural[form]`, as
    /// `{stringUnit: {state: translated, value}}`. A missing form is added. This is the form a `.stringsdict`
    /// rule compiled from the catalog shows (`variable` is then the rule's variable: a substitution's name, or
    /// the one made for plain plural variations, which is not a substitution).
    ///
    /// - Throws: `EditError`: `.invalidValue` (NUL, empty key, unknown form), `.noSuchKey` when the key has no
    ///   plural variations in `language` to set a form of, `.unreadable`, `.cannotEdit` for another shape.
    public static func setting(
        form: String, variable: String?, of key: String, language: String, to value: String, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        try EditError.checkKey(key)
        try EditError.checkText(value, naming: "value")
        try checkForm(form)
        var catalog = try read(bytes)
        var strings = try catalog.member("strings", orEmpty: false)
        let shown = DisplayText.escaped(key, limit: 60)
        guard var entry = strings.member(key), var localizations = entry.member("localizations"),
              var localization = localizations.member(language) else {
            throw EditError(.noSuchKey, "no \(language) localization for the key '\(shown)'")
        }
        if let variable, var substitutions = localization.member("substitutions"),
           let substitution = substitutions.member(variable) {
            guard let changed = substitution.settingPluralForm(form, to: value) else {
                throw EditError(.cannotEdit, "the substitution '\(DisplayText.escaped(variable, limit: 60))' of "
                                + "'\(shown)' in \(language) has no plural variations")
            }
            substitutions.setMember(variable, to: changed)
            localization.setMember("substitutions", to: substitutions)
        } else if let changed = localization.settingPluralForm(form, to: value) {
            localization = changed
        } else {
            throw EditError(.noSuchKey, "'\(shown)' has no plural variations in \(language)")
        }
        localizations.setMember(language, to: localization)
        entry.setMember("localizations", to: localizations)
        strings.setMember(key, to: entry)
        catalog.setMember("strings", to: strings)
        return xcodeLayout(catalog)
    }

    /// The catalog without `key`'s localization for `language` (and without the key's `localizations` when none
    /// is left; the key stays, as Xcode keeps a key its source code uses).
    ///
    /// - Throws: `EditError`: `.noSuchKey` when the key has no localization for `language`, `.unreadable`,
    ///   `.cannotEdit` for a catalog of another shape.
    public static func removing(_ key: String, language: String, in bytes: [UInt8]) throws(EditError) -> [UInt8] {
        var catalog = try read(bytes)
        var strings = try catalog.member("strings", orEmpty: false)
        guard var entry = strings.member(key), var localizations = entry.member("localizations"),
              localizations.member(language) != nil else {
            throw EditError(.noSuchKey, "no \(language) localization for the key '\(DisplayText.escaped(key, limit: 60))'")
        }
        localizations.removeMember(language)
        if case .object(let members) = localizations, members.isEmpty {
            entry.removeMember("localizations")
        } else {
            entry.setMember("localizations", to: localizations)
        }
        strings.setMember(key, to: entry)
        catalog.setMember("strings", to: strings)
        return xcodeLayout(catalog)
    }

    /// Refuses a form that is no plural category.
    static func checkForm(_ form: String) throws(EditError) {
        guard StringsdictEditor.pluralCategories.contains(form) else {
            throw EditError(.invalidValue, "'\(DisplayText.escaped(form, limit: 20))' is not a plural category "
                            + "(zero, one, two, few, many, other)")
        }
    }

    /// A catalog value written exactly in Xcode's own layout (see `JSONValue.xcodeLayout`).
    ///
    /// `package`, not `public`: `JSONValue` is the package's own type.
    package static func xcodeLayout(_ catalog: JSONValue) -> [UInt8] {
        catalog.xcodeLayout()
    }

    static func read(_ bytes: [UInt8]) throws(EditError) -> JSONValue {
        let catalog: JSONValue
        do {
            catalog = try JSONValue(parsing: bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            throw .unreadable(ParseError(error.reason, line: line, column: column, byteOffset: error.offset))
        }
        guard case .object = catalog else { throw EditError(.cannotEdit, "the catalog is not a JSON object") }
        return catalog
    }
}

extension JSONValue {
    /// The member `name` of an object (the last when it repeats), or `nil`.
    func member(_ name: String) -> JSONValue? { self[name] }

    /// The object member `name`, an empty object when absent and `orEmpty`.
    func member(_ name: String, orEmpty: Bool) throws(EditError) -> JSONValue {
        switch self[name] {
        case .object(let members)?: return .object(members)
        case nil where orEmpty: return .object([])
        case nil: throw EditError(.noSuchKey, "the catalog has no '\(name)'")
        default: throw EditError(.cannotEdit, "the catalog's '\(name)' is not an object")
        }
    }

    /// Sets the member `name` of an object: its last occurrence when present, else a new member where Xcode's
    /// order puts it.
    mutating func setMember(_ name: String, to value: JSONValue) {
        guard case .object(var members) = self else { return }
        if let index = members.lastIndex(where: { $0.0 == name }) {
            members[index].1 = value
        } else {
            let index = members.firstIndex { XcodeKeyOrder.precedes(name, $0.0) } ?? members.count
            members.insert((name, value), at: index)
        }
        self = .object(members)
    }

    /// This localization (or substitution, or device case) with `variations.plural[form]` set to a translated
    /// `value` (a missing form is added); `nil` when it has no plural variations.
    func settingPluralForm(_ form: String, to value: String) -> JSONValue? {
        guard var variations = member("variations"), var plural = variations.member("plural"),
              case .object = plural else { return nil }
        plural.setMember(form, to: (plural.member(form) ?? .object([])).settingStringUnit(to: value))
        variations.setMember("plural", to: plural)
        var changed = self
        changed.setMember("variations", to: variations)
        return changed
    }

    /// This localization (or a case of its variations) with `stringUnit` = `{state: translated, value}`, its other
    /// members kept.
    func settingStringUnit(to value: String) -> JSONValue {
        var unit = member("stringUnit") ?? .object([])
        if case .object = unit {} else { unit = .object([]) }
        unit.setMember("state", to: .string("translated"))
        unit.setMember("value", to: .string(value))
        var changed = self
        changed.setMember("stringUnit", to: unit)
        return changed
    }

    /// Removes every member `name` of an object.
    mutating func removeMember(_ name: String) {
        guard case .object(var members) = self else { return }
        members.removeAll { $0.0 == name }
        self = .object(members)
    }
}
