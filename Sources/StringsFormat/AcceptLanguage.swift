/// An HTTP `Accept-Language` header (RFC 9110, section 12.5.4) read into the language preferences of a request.
///
/// The header is a comma-separated list of language ranges (`de-CH`, `*`), each with an optional weight
/// (`;q=0.8`, three decimals at most, 1 when absent). Ranges are ordered by weight, highest first, and by
/// their place in the header among equal weights; `q=0` excludes a range (`en;q=0`: no English, in any
/// region). `*` stands for any language: like RFC 4647's lookup, it adds no language of its own, since every
/// chain ends with the development language and `Base` anyway. Names are case-insensitive; spaces and tabs
/// around commas and semicolons are allowed, and so are empty list elements (`de,,fr`), as RFC 9110 says.
///
/// Reading is bounded: a header longer than `maximumLength` bytes or with more than `maximumRanges` ranges is
/// refused, and so is anything malformed, with a reason that names the range and what is wrong with it. It is
/// never a crash, whatever the bytes.
public struct AcceptLanguage: Sendable, Hashable {
    /// One language range and its weight.
    public struct Range: Sendable, Hashable {
        /// The language, or nil for `*`.
        public var language: LanguageTag?
        /// The weight in thousandths: 1000 for `q=1` (or none), 0 for `q=0`.
        public var quality: Int
    }

    /// The longest header read, in bytes.
    public static let maximumLength = 4096
    /// The most ranges read.
    public static let maximumRanges = 64

    /// The ranges as the header lists them, in its order.
    public let ranges: [Range]

    /// Reads a header's value (without the `Accept-Language:` name).
    ///
    /// - Throws: `AcceptLanguage.Problem` naming what is malformed.
    public init(parsing header: some StringProtocol) throws(Problem) {
        let bytes = Array(header.utf8)
        guard bytes.count <= Self.maximumLength else {
            throw Problem(reason: "the header is \(bytes.count) bytes long; at most \(Self.maximumLength) are read")
        }
        var ranges: [Range] = []
        for element in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let trimmed = Self.trimmed(element)
            if trimmed.isEmpty { continue }
            guard ranges.count < Self.maximumRanges else {
                throw Problem(reason: "the header has more than \(Self.maximumRanges) language ranges")
            }
            ranges.append(try Self.range(trimmed))
        }
        self.ranges = ranges
    }

    /// The preferred languages, highest weight first (header order among equal weights), without `*` and the
    /// excluded ranges.
    public var preferences: [LanguageTag] {
        ranges.enumerated()
            .filter { $0.element.quality > 0 && $0.element.language != nil }
            .sorted { ($0.element.quality, -$0.offset) > ($1.element.quality, -$1.offset) }
            .compactMap(\.element.language)
    }

    /// The ranges with weight 0: no language they match may answer (RFC 4647 basic filtering: `en` matches
    /// `en`, `en-GB` and `en-Latn-US`).
    public var exclusions: [LanguageTag] {
        ranges.filter { $0.quality == 0 }.compactMap(\.language)
    }

    /// Whether `language` is excluded by a `q=0` range.
    public func excludes(_ language: LanguageTag) -> Bool {
        exclusions.contains { excluded in
            language == excluded || language.identifier.lowercased().hasPrefix(excluded.identifier.lowercased() + "-")
        }
    }

    /// Why a header could not be read.
    public struct Problem: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, in one sentence without a trailing period.
        public var reason: String

        /// A problem with `reason`.
        public init(reason: String) {
            self.reason = reason
        }

        public var description: String { "invalid Accept-Language: \(reason)" }
    }

    // MARK: - Reading

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }

    private static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var slice = bytes
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
        return slice
    }

    /// Part of the header for a message: controls escaped, cut after 80 characters.
    private static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        DisplayText.escaped(String(decoding: bytes, as: UTF8.self), limit: 80)
    }

    /// One list element: `range *( OWS ";" OWS "q=" qvalue )`.
    private static func range(_ element: ArraySlice<UInt8>) throws(Problem) -> Range {
        let parts = element.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map(trimmed)
        let name = parts[0]
        guard !name.isEmpty else { throw Problem(reason: "'\(shown(element))' has no language range before ';'") }
        var quality = 1000
        for (index, parameter) in parts.dropFirst().enumerated() {
            guard index == 0 else { throw Problem(reason: "'\(shown(element))' has more than one parameter") }
            quality = try weight(parameter, in: element)
        }
        if name.count == 1, name.first == UInt8(ascii: "*") { return Range(language: nil, quality: quality) }
        return Range(language: try language(name), quality: quality)
    }

    /// `language-range = (1*8ALPHA *("-" 1*8alphanum))`, then read as a tag.
    private static func language(_ name: ArraySlice<UInt8>) throws(Problem) -> LanguageTag {
        let subtags = name.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
        for (index, subtag) in subtags.enumerated() {
            let isValid = (1...8).contains(subtag.count) && subtag.allSatisfy { byte in
                let letter = (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                return letter || (index > 0 && byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            }
            guard isValid else {
                throw Problem(reason: "'\(shown(name))' is not a language range (subtags of 1 to 8 letters or digits, "
                              + "the first letters only, joined by '-')")
            }
        }
        guard let tag = LanguageTag(String(decoding: name, as: UTF8.self)), !tag.isBase else {
            throw Problem(reason: "'\(shown(name))' is not a language tag")
        }
        return tag
    }

    /// `weight = "q=" qvalue`, `qvalue = ("0" ["." 0*3DIGIT]) / ("1" ["." 0*3("0")])`, in thousandths.
    private static func weight(_ parameter: ArraySlice<UInt8>, in element: ArraySlice<UInt8>) throws(Problem) -> Int {
        let problem = Problem(reason: "'\(shown(element))': the weight must be q= and a number from 0 to 1 with at most "
                              + "three decimals")
        guard parameter.count >= 3, parameter.first.map({ $0 | 0x20 }) == UInt8(ascii: "q"),
              parameter.dropFirst().first == UInt8(ascii: "=") else { throw problem }
        let value = parameter.dropFirst(2)
        guard let whole = value.first, whole == UInt8(ascii: "0") || whole == UInt8(ascii: "1") else { throw problem }
        var thousandths = whole == UInt8(ascii: "1") ? 1000 : 0
        let rest = value.dropFirst()
        if rest.isEmpty { return thousandths }
        guard rest.first == UInt8(ascii: "."), rest.count <= 4 else { throw problem }
        var scale = 100
        for digit in rest.dropFirst() {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { throw problem }
            thousandths += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        guard thousandths <= 1000 else { throw problem }
        return thousandths
    }
}

extension LanguageMatcher {
    /// The chain of a lookup for an HTTP request: what answers each preferred language of `acceptLanguage` in
    /// its order, leaving out every language a `q=0` range excludes, then (as `resolve(preferences:…)`) the
    /// selected language, the development language (with the other regions it answers for) and `Base`, even when
    /// excluded, since a lookup must end somewhere.
    public func resolve(acceptLanguage: AcceptLanguage, selected: LanguageTag?, development: LanguageTag) -> [Step] {
        resolve(preferences: acceptLanguage.preferences, selected: selected, development: development,
                excluding: acceptLanguage.excludes)
    }
}
