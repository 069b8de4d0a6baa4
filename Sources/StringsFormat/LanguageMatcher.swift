/// Chooses which of a bundle's languages answer a requested language, and in which order, the way Apple
/// platforms choose a localization: with CLDR's likely subtags and parent locales, never across scripts.
///
/// For a request such as `es-MX` the matcher adds the likely subtags (`es-Latn-MX`), then walks its CLDR
/// parents (`es-419`), then the language in that script (`es`), and at each step takes every bundle
/// language that means the same once its own likely subtags are added (`zh_TW.lproj` is `zh-Hant-TW`, as is
/// a request for `zh-Hant-TW`; `pt.lproj` is `pt-Latn-BR`). Last come the other regions of the same language
/// and script (`zh-Hant-HK` for `zh-TW`). A request whose script differs from a bundle language's never
/// matches it: `sr` (`sr-Cyrl-RS`) is not answered by `sr-Latn`, `zh-TW` not by `zh-Hans`. Legacy codes are
/// read as their current ones by `LanguageTag` already (`iw` is `he`, `no` is `nb`). `docs/LANGUAGES.md`
/// shows the algorithm with examples.
///
/// A language without CLDR likely subtags (a private or unknown code) matches itself and its more general
/// tags (`LanguageTag.fallbacks`). `Base` is never a match; `chain(preferences:selected:development:)` puts it
/// last.
///
/// - Complexity: building a matcher is O(languages); `matches(for:)` is O(languages of the request's
///   language). Callers cache what they resolve (per preference list and set of languages).
public struct LanguageMatcher: Sendable, Equatable {
    /// Why a bundle language answers a request.
    public enum Reason: Sendable, Hashable, CustomStringConvertible {
        /// The request names the language exactly.
        case exact
        /// The same language, script and region once likely subtags are added (`zh-TW` is `zh-Hant-TW`).
        case likely(LanguageTag)
        /// The CLDR parent locale the request falls back to (`es-MX` → `es-419`).
        case parent(LanguageTag)
        /// The language that stands in for a parent the bundle does not have (`en-GB` for `en-001`).
        case standIn(LanguageTag)
        /// The language in the request's script, without a region (`zh-Hant`, `es`).
        case script(LanguageTag)
        /// Another region of the request's language and script.
        case sibling(LanguageTag)
        /// A more general tag of a language that has no likely subtags.
        case general

        /// The reason as a phrase, such as `parent locale es-419`.
        public var description: String {
            switch self {
            case .exact: "exact"
            case .likely(let tag): "same as \(tag) (likely subtags)"
            case .parent(let tag): "parent locale \(tag)"
            case .standIn(let tag): "stands in for \(tag)"
            case .script(let tag): "language and script \(tag)"
            case .sibling(let tag): "another region of \(tag)"
            case .general: "more general tag"
            }
        }
    }

    /// A bundle language that answers a request, and why.
    public struct Match: Sendable, Hashable {
        /// The bundle's language (its folder's canonical tag).
        public var language: LanguageTag
        /// Why it answers.
        public var reason: Reason
    }

    /// One step of a lookup's chain: the bundle language tried, and which input brought it in.
    public struct Step: Sendable, Hashable {
        /// What brought a language into the chain.
        public enum Source: String, Sendable, Hashable {
            case preference, selected, development, base
        }

        /// The bundle's language tried at this step.
        public var language: LanguageTag
        /// The request it answers (`nil` for `Base`).
        public var request: LanguageTag?
        /// Which input the request was.
        public var source: Source
        /// Why the language answers the request.
        public var reason: Reason
    }

    /// A bundle language with its likely subtags.
    private struct Entry: Sendable, Equatable {
        var tag: LanguageTag
        var region: String
        var hasRegion: Bool
    }

    /// The bundle's languages, without `Base`.
    public let languages: Set<LanguageTag>
    /// The bundle languages with likely subtags, by `language-Script`, sorted by tag.
    private let entries: [String: [Entry]]

    /// A matcher for a bundle with `languages` (`Base` among them is ignored).
    public init(languages: some Sequence<LanguageTag>) {
        let languages = Set(languages.lazy.filter { !$0.isBase })
        var entries: [String: [Entry]] = [:]
        // A pseudo-language answers only a request for itself: `ar` must not find `ar-XB`, nor `en-US` `en-XA`.
        for tag in languages.sorted() where !tag.hasVariantsOrExtensions && PseudoLocalizer(language: tag) == nil {
            guard let likely = Self.likelySubtags(of: tag) else { continue }
            let entry = Entry(tag: tag, region: likely.region, hasRegion: tag.region != nil)
            entries["\(tag.language)-\(likely.script)", default: []].append(entry)
        }
        self.languages = languages
        self.entries = entries
    }

    /// The bundle languages that answer `request`, most fitting first, each once.
    public func matches(for request: LanguageTag) -> [Match] {
        guard !request.isBase else { return [] }
        var result: [Match] = []
        var seen: Set<LanguageTag> = []
        func add(_ language: LanguageTag, _ reason: Reason) {
            if seen.insert(language).inserted { result.append(Match(language: language, reason: reason)) }
        }
        if languages.contains(request) { add(request, .exact) }
        guard let likely = Self.likelySubtags(of: request) else {
            for general in request.fallbacks.dropFirst() where languages.contains(general) { add(general, .general) }
            return result
        }
        let language = request.language
        let candidates = entries["\(language)-\(likely.script)"] ?? []
        let scriptTag = Self.minimalTag(language, likely.script, nil)
        // The request's region, then its CLDR parents within the same script.
        var region: String? = likely.region
        var regionsSeen: Set<String> = []
        var isParent = false
        while let current = region, regionsSeen.insert(current).inserted {
            let step = Self.minimalTag(language, likely.script, current)
            for entry in candidates where entry.region == current {
                add(entry.tag, isParent ? .parent(step) : .likely(Self.tag(language, likely.script, current)))
            }
            let regional = Self.tag(language, nil, current).identifier
            if let standIn = LanguageData.standIns[regional].flatMap({ LanguageTag($0) }),
               candidates.contains(where: { $0.tag == standIn }) {
                add(standIn, .standIn(Self.tag(language, nil, current)))
            }
            region = Self.parentRegion(language: language, script: likely.script, region: current)
            isParent = true
        }
        for entry in candidates where !entry.hasRegion { add(entry.tag, .script(scriptTag)) }
        let likelyRegion = Self.likelySubtags(of: Self.tag(language, likely.script, nil))?.region
        for entry in candidates where entry.region == likelyRegion { add(entry.tag, .sibling(scriptTag)) }
        for entry in candidates { add(entry.tag, .sibling(scriptTag)) }
        return result
    }

    /// Whether some bundle language answers `request`.
    public func supports(_ request: LanguageTag) -> Bool {
        !matches(for: request).isEmpty
    }

    /// The whole chain of a lookup: what answers each preference, then the selected language, then the
    /// development language, each bundle language once, then `Base`.
    public func resolve(preferences: [LanguageTag], selected: LanguageTag?, development: LanguageTag) -> [Step] {
        resolve(preferences: preferences, selected: selected, development: development, excluding: { _ in false })
    }

    /// `resolve(preferences:selected:development:)` where no preference answers with a language `isExcluded`.
    func resolve(preferences: [LanguageTag], selected: LanguageTag?, development: LanguageTag,
                 excluding isExcluded: (LanguageTag) -> Bool) -> [Step] {
        var steps: [Step] = []
        var seen: Set<LanguageTag> = []
        let requests = preferences.map { ($0, Step.Source.preference) }
            + (selected.map { [($0, Step.Source.selected)] } ?? []) + [(development, .development)]
        for (request, source) in requests {
            for match in matches(for: request)
            where !(source == .preference && isExcluded(match.language)) && seen.insert(match.language).inserted {
                steps.append(Step(language: match.language, request: request, source: source, reason: match.reason))
            }
        }
        steps.append(Step(language: .base, request: nil, source: .base, reason: .exact))
        return steps
    }

    /// The languages of `resolve(preferences:selected:development:)`, in order, ending with `Base`.
    public func chain(preferences: [LanguageTag], selected: LanguageTag?, development: LanguageTag) -> [LanguageTag] {
        resolve(preferences: preferences, selected: selected, development: development).map(\.language)
    }

    /// `tag` with its likely script and region added (`zh-TW` → `zh-Hant-TW`, `sr` → `sr-Cyrl-RS`), without
    /// its variants and extensions; nil when CLDR has no likely subtags for its language.
    public static func maximized(_ tag: LanguageTag) -> LanguageTag? {
        likelySubtags(of: tag).map { self.tag(tag.language, $0.script, $0.region) }
    }

    /// The likely script and region of `tag`: CLDR's lookup of `language-Script-REGION`, `language-REGION`,
    /// `language-Script`, then `language`, keeping the subtags the tag has.
    private static func likelySubtags(of tag: LanguageTag) -> LanguageData.Likely? {
        guard !tag.isBase else { return nil }
        let language = tag.language
        let script = tag.script
        let region = tag.region
        var keys: [String] = []
        if let script, let region { keys.append("\(language)-\(script)-\(region)") }
        if let region { keys.append("\(language)-\(region)") }
        if let script { keys.append("\(language)-\(script)") }
        keys.append(language)
        for key in keys {
            if let found = LanguageData.likelySubtags[key] {
                return LanguageData.Likely(script: script ?? found.script, region: region ?? found.region)
            }
        }
        if let script, let region { return LanguageData.Likely(script: script, region: region) }
        return nil
    }

    /// The region of the CLDR parent of `language-Script-REGION`, when that parent has the same script and a
    /// region; nil when the chain goes on with the language in its script.
    private static func parentRegion(language: String, script: String, region: String) -> String? {
        var parent = LanguageData.parents["\(language)-\(script)-\(region)"]
        if parent == nil, likelySubtags(of: tag(language, nil, region))?.script == script {
            parent = LanguageData.parents["\(language)-\(region)"]
        }
        guard let parent = parent.flatMap({ LanguageTag($0) }), let likely = likelySubtags(of: parent),
              likely.script == script, let parentRegion = parent.region
        else { return nil }
        return parentRegion
    }

    /// The shortest tag for the given subtags: the script is left out when it is the likely one (`es-419` for
    /// `es-Latn-419`, `de` for `de-Latn`, but `zh-Hant-HK` and `sr-Latn`).
    private static func minimalTag(_ language: String, _ script: String, _ region: String?) -> LanguageTag {
        let withoutScript = tag(language, nil, region)
        return likelySubtags(of: withoutScript)?.script == script ? withoutScript : tag(language, script, region)
    }

    /// The canonical tag of the given subtags.
    private static func tag(_ language: String, _ script: String?, _ region: String?) -> LanguageTag {
        let identifier = [language, script, region].compactMap { $0 }.joined(separator: "-")
        guard let tag = LanguageTag(identifier) else { preconditionFailure("not a tag: \(identifier)") }
        return tag
    }
}
