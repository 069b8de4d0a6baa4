import HotStringsProtocol

extension LiveStrings {
    /// Writes `key`'s value in `language` into the bundle's files, through the daemon (or the embedded host): where
    /// the key is served from, changing only the value's bytes (see docs/GUIDE.md, "Edit live").
    ///
    /// Every client, this one included, sees the change as one reload; this call returns once the file is written,
    /// which may be a moment before the reload arrives.
    /// - Parameters:
    ///   - language: a language the bundle serves, exactly as `supportedLanguages` lists it (no fallback).
    ///   - form: a `.stringsdict` plural form (`one`, `other` …) to set instead of a plain value; `variable` names
    ///     the entry's variable when it has more than one.
    ///   - device: the device (`iphone`, `ipad`, `mac`, `other` …) whose text, or with `form` whose plural form, is
    ///     set: a String Catalog's device variations or a `.stringsdict` entry's `NSStringDeviceSpecificRuleType`.
    ///   - comment: written above a new entry.
    ///   - createLanguage: create the language's folder when the bundle has none.
    ///   - force: write a value whose format specifiers `lint` judges an error (an argument the development
    ///     language does not give, or one read as another class: a `%d` translated as `%@`).
    /// - Returns: the file written, relative to the bundle (`de.lproj/Localizable.strings`).
    /// - Throws: `LiveStringsError` of code `.rejected` (`rejectionCode` `bad_request` for a bad key or value, format
    ///   specifiers with an error (its `message` `lint`'s), a pseudo-language or a bundle managed by `pull`;
    ///   `unsupported_language`, `not_found`, `busy` when another process kept the language folder locked past the
    ///   server's deadline, nothing written; `internal` when the file could not be written), `.notConnected` while
    ///   the daemon is away.
    @discardableResult
    public func set(_ key: String, to value: String, language: String, table: String = LiveStrings.defaultTable,
                    form: String? = nil, variable: String? = nil, device: String? = nil, comment: String? = nil,
                    createLanguage: Bool = false, force: Bool = false) async throws(LiveStringsError) -> String {
        let edit = Edit(key: key, value: value, language: language, table: table, form: form, variable: variable,
                        device: device, comment: comment, createsLanguage: createLanguage, isForced: force)
        return try await writtenFile(.set(edit))
    }

    /// Removes `key`'s entry in `language` from where it is served, through the daemon (or the embedded host).
    /// - Returns: the file written, relative to the bundle.
    /// - Throws: `LiveStringsError`, as `set`; `not_found` when the key is not there.
    @discardableResult
    public func remove(_ key: String, language: String, table: String = LiveStrings.defaultTable)
        async throws(LiveStringsError) -> String {
        try await writtenFile(.remove(key: key, language: language, table: table))
    }

    /// The file an edit wrote, relative to the bundle.
    private func writtenFile(_ request: Request) async throws(LiveStringsError) -> String {
        guard case .edit(let written) = try await transport.request(request) else { return "" }
        return written.file
    }
}
