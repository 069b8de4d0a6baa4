import StringsFormat

/// Language tags as the daemon spells them (StringsFormat's `LanguageTag`, the rules the daemon uses), as the
/// strings the mirror keys its tables by, and the environment's language preferences.
enum LanguageTags {
    /// The tag of `Base.lproj`, the last fallback of every lookup.
    static let base = LanguageTag.base.identifier

    /// The canonical form of `tag` (`de_ch` → `de-CH`, `German` → `de`), or nil when it is not a tag.
    static func canonical(_ tag: some StringProtocol) -> String? {
        LanguageTag(tag)?.identifier
    }

    /// `tag` (canonical) and the more general tags it falls back to: `zh-Hans-CN` → `[zh-Hans-CN, zh-Hans, zh]`;
    /// just `tag` when it is not a tag.
    static func fallbacks(of tag: String) -> [String] {
        LanguageTag(tag)?.fallbacks.map(\.identifier) ?? [tag]
    }

    /// The languages a program should show by default, most preferred first, read from the environment the
    /// way GNU gettext reads it for messages.
    ///
    /// The locale is the first non-empty of `LC_ALL`, `LC_MESSAGES` and `LANG`; `C` or `POSIX` there (with any
    /// codeset, such as `C.UTF-8`) means no translation, and the result is empty. Otherwise `LANGUAGE`, a colon
    /// separated list, wins when it names any language; else the locale itself. Each entry loses its codeset
    /// (`.UTF-8`) and modifier (`@euro`), and entries that are not tags are skipped. Unlike gettext, a
    /// `LANGUAGE` is honoured when no locale variable is set at all (gettext would then be in the C locale),
    /// since a program that links this library opted into translation.
    static func environmentPreferences(_ environment: [String: String]) -> [String] {
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        if let locale, isCLocale(locale) { return [] }
        if let list = environment["LANGUAGE"] {
            var preferences: [String] = []
            for entry in list.split(separator: ":") {
                if let tag = tag(fromLocale: entry), !preferences.contains(tag) { preferences.append(tag) }
            }
            if !preferences.isEmpty { return preferences }
        }
        return locale.flatMap { tag(fromLocale: $0) }.map { [$0] } ?? []
    }

    /// The tag of a POSIX locale name such as `de_CH.UTF-8@euro`, or nil for `C`, `POSIX` and non-tags.
    static func tag(fromLocale locale: some StringProtocol) -> String? {
        guard !isCLocale(locale) else { return nil }
        let name = locale.prefix { $0 != "." && $0 != "@" }
        guard let tag = canonical(name), tag != base else { return nil }
        return tag
    }

    private static func isCLocale(_ locale: some StringProtocol) -> Bool {
        let name = locale.prefix { $0 != "." && $0 != "@" }
        return name == "C" || name == "POSIX"
    }
}
