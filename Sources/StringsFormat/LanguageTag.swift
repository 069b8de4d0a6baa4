/// A language as a bundle names it: a `.lproj` folder name or a requested language, in canonical form.
///
/// Tags are read case-insensitively with `_` and `-` as the same separator, and written in the
/// usual BCP 47 casing: the language subtag in lower case (`zh`), a four-letter script in title case
/// (`Hans`), a two-letter or three-digit region in upper case (`CN`, `419`), anything else (variants,
/// and everything from an extension's one-letter singleton on, as in `en-US-u-ca-gregory`) in lower
/// case. So `zh_hans_cn`, `ZH-HANS-CN` and `zh-Hans-CN` are one tag. The old English folder names
/// Xcode once wrote (`English.lproj`, `German.lproj`, ...) map to their codes, legacy language codes map
/// to their current ones (`iw` → `he`, `in` → `id`, `ji` → `yi`, `no` → `nb`, `sh` → `sr-Latn`; CLDR's
/// aliases and Apple's `no`, see `LanguageMatcher`), and `Base` (the folder of base
/// internationalization) stays `Base`.
///
/// Equality, hashing and ordering use the canonical form.
public struct LanguageTag: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The canonical form, such as `zh-Hans-CN`, `pt-BR`, `en` or `Base`.
    public let identifier: String

    /// The tag of `Base.lproj`, the last fallback of every lookup.
    public static let base = LanguageTag(canonical: "Base")

    /// The longest string accepted, so that a request cannot make tags of unbounded size.
    public static let maximumLength = 128

    /// Legacy folder names and the codes they stand for (lower-cased names).
    static let legacyNames: [String: String] = [
        "english": "en", "german": "de", "french": "fr", "spanish": "es",
        "italian": "it", "japanese": "ja", "dutch": "nl",
    ]

    /// Reads a tag from a folder name without its `.lproj` suffix or from a requested language.
    ///
    /// Returns `nil` for an empty string, one longer than `maximumLength`, one with characters other
    /// than ASCII letters, digits, `-` and `_`, one with an empty subtag (`en-`, `-en`, `en--US`), or
    /// one whose first subtag is not made of letters.
    public init?(_ string: some StringProtocol) {
        guard !string.isEmpty, string.utf8.count <= Self.maximumLength else { return nil }
        var subtags: [String] = []
        var current: [UInt8] = []
        current.reserveCapacity(8)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "-"), UInt8(ascii: "_"):
                guard !current.isEmpty else { return nil }
                subtags.append(String(decoding: current, as: UTF8.self))
                current.removeAll(keepingCapacity: true)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                current.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                current.append(byte + 32)
            default:
                return nil
            }
        }
        guard !current.isEmpty else { return nil }
        subtags.append(String(decoding: current, as: UTF8.self))
        guard subtags[0].utf8.allSatisfy(Self.isLetter) else { return nil }

        if subtags.count == 1 {
            if subtags[0] == "base" {
                self = .base
                return
            }
            if let code = Self.legacyNames[subtags[0]] {
                self.init(canonical: code)
                return
            }
        }
        if let replacement = LanguageData.aliases[subtags[0]] {
            // `sh` → `sr-Latn`: the replacement's script, unless the tag names its own.
            let replacementSubtags = replacement.lowercased().split(separator: "-").map(String.init)
            subtags[0] = replacementSubtags[0]
            let hasScript = subtags.count > 1 && subtags[1].utf8.count == 4 && subtags[1].utf8.allSatisfy(Self.isLetter)
            if replacementSubtags.count > 1, !hasScript { subtags.insert(replacementSubtags[1], at: 1) }
        }
        var parts = [subtags[0]]
        // Scripts and regions come before the first singleton (`u-`, `x-`); what follows stays lower case.
        var isInExtension = false
        for subtag in subtags.dropFirst() {
            isInExtension = isInExtension || subtag.utf8.count == 1
            parts.append(isInExtension ? subtag : Self.canonicalCase(ofSubtag: subtag))
        }
        self.init(canonical: parts.joined(separator: "-"))
    }

    private init(canonical: String) {
        identifier = canonical
    }

    /// Whether this is `Base`, the folder of base internationalization.
    public var isBase: Bool { identifier == "Base" }

    /// The language subtag: `zh` for `zh-Hans-CN`.
    public var language: String {
        String(identifier.prefix { $0 != "-" })
    }

    /// The script subtag (`Hant` of `zh-Hant-TW`), or nil when the tag names none.
    public var script: String? {
        let subtags = identifier.split(separator: "-")
        guard subtags.count > 1, subtags[1].utf8.count == 4, subtags[1].utf8.first.map(Self.isUpper) == true
        else { return nil }
        return String(subtags[1])
    }

    /// The region subtag (`TW` of `zh-Hant-TW`, `419` of `es-419`), or nil when the tag names none.
    public var region: String? {
        let subtags = identifier.split(separator: "-").dropFirst()
        let candidate = subtags.first.flatMap { $0.utf8.count == 4 ? subtags.dropFirst().first : $0 }
        guard let candidate, Self.isRegion(candidate) else { return nil }
        return String(candidate)
    }

    /// Whether the tag has subtags beyond language, script and region (variants, extensions).
    var hasVariantsOrExtensions: Bool {
        var count = 1
        if script != nil { count += 1 }
        if region != nil { count += 1 }
        return identifier.split(separator: "-").count > count
    }

    /// This tag and the more general tags it falls back to, most specific first.
    ///
    /// Each step drops the last subtag, together with an extension's one-letter singleton that
    /// would be left dangling: `zh-Hans-CN` gives `[zh-Hans-CN, zh-Hans, zh]`, `de-CH` gives
    /// `[de-CH, de]`, `en` gives `[en]`, and `Base` gives `[Base]`.
    public var fallbacks: [LanguageTag] {
        var result = [self]
        var subtags = identifier.split(separator: "-")
        while subtags.count > 1 {
            subtags.removeLast()
            while subtags.count > 1, subtags[subtags.count - 1].utf8.count == 1 { subtags.removeLast() }
            result.append(LanguageTag(canonical: subtags.joined(separator: "-")))
        }
        return result
    }

    /// The canonical form.
    public var description: String { identifier }

    /// Orders tags by their canonical form.
    public static func < (lhs: LanguageTag, rhs: LanguageTag) -> Bool { lhs.identifier < rhs.identifier }

    /// A subtag after the first, in canonical case; `subtag` is already lower case.
    private static func canonicalCase(ofSubtag subtag: String) -> String {
        let bytes = Array(subtag.utf8)
        if bytes.count == 4, bytes.allSatisfy(isLetter) {
            return subtag.prefix(1).uppercased() + subtag.dropFirst()
        }
        if bytes.count == 2, bytes.allSatisfy(isLetter) { return subtag.uppercased() }
        return subtag
    }

    private static func isRegion(_ subtag: Substring) -> Bool {
        let bytes = subtag.utf8
        return (bytes.count == 2 && bytes.allSatisfy(isUpper))
            || (bytes.count == 3 && bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
    }

    private static func isUpper(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")
    }
}
