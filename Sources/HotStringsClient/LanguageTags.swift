/// Language tags as the daemon spells them, and the environment's language preferences.
///
/// The daemon canonicalizes tags (`de_ch` → `de-CH`, `German` → `de`, `zh_hans` → `zh-Hans`); the mirror
/// must spell them the same way to find the tables of a snapshot, so this repeats those rules.
enum LanguageTags {
    /// Legacy `.lproj` folder names and the codes they stand for.
    static let legacyNames: [String: String] = [
        "english": "en", "german": "de", "french": "fr", "spanish": "es",
        "italian": "it", "japanese": "ja", "dutch": "nl",
    ]

    /// The tag of `Base.lproj`, the last fallback of every lookup.
    static let base = "Base"

    /// The canonical form of `tag`, or nil when it is not a tag (empty subtags, characters other than
    /// ASCII letters, digits, `-` and `_`, a first subtag that is not letters, more than 128 bytes).
    static func canonical(_ tag: some StringProtocol) -> String? {
        guard !tag.isEmpty, tag.utf8.count <= 128 else { return nil }
        var subtags: [String] = []
        for part in tag.split(separator: "-", omittingEmptySubsequences: false)
            .flatMap({ $0.split(separator: "_", omittingEmptySubsequences: false) })
        {
            guard !part.isEmpty, part.utf8.allSatisfy(isAlphanumeric) else { return nil }
            subtags.append(part.lowercased())
        }
        guard subtags[0].utf8.allSatisfy(isLetter) else { return nil }
        if subtags.count == 1 {
            if subtags[0] == "base" { return base }
            if let code = legacyNames[subtags[0]] { return code }
        }
        var parts = [subtags[0]]
        // Scripts and regions come before the first singleton (`u-`, `x-`); what follows stays lower case.
        var isInExtension = false
        for subtag in subtags.dropFirst() {
            isInExtension = isInExtension || subtag.utf8.count == 1
            parts.append(isInExtension ? subtag : canonicalCase(ofSubtag: subtag))
        }
        return parts.joined(separator: "-")
    }

    /// `tag` (canonical) and the more general tags it falls back to: `zh-Hans-CN` → `[zh-Hans-CN, zh-Hans, zh]`.
    static func fallbacks(of tag: String) -> [String] {
        var result = [tag]
        var subtags = tag.split(separator: "-")
        while subtags.count > 1 {
            subtags.removeLast()
            // A singleton left at the end would start an empty extension: drop it too.
            while subtags.count > 1, subtags[subtags.count - 1].utf8.count == 1 { subtags.removeLast() }
            result.append(subtags.joined(separator: "-"))
        }
        return result
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

    /// A subtag after the first, already lower case: scripts get a capital, regions are upper case.
    private static func canonicalCase(ofSubtag subtag: String) -> String {
        let count = subtag.utf8.count
        if count == 4, subtag.utf8.allSatisfy(isLetter) { return subtag.prefix(1).uppercased() + subtag.dropFirst() }
        if count == 2, subtag.utf8.allSatisfy(isLetter) { return subtag.uppercased() }
        return subtag
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
