/// A String Catalog (`T.xcstrings`): table `T` for every language it holds, as Xcode 15 and later write it.
///
/// The model keeps what the JSON says (`sourceLanguage`, per key `comment`, `extractionState`,
/// `shouldTranslate` and `localizations` with their string units, `plural` and `device` variations and
/// `substitutions`); `compiled(language:)` turns one language into the `.strings` values and `.stringsdict`
/// rules that Xcode's build writes. `docs/FORMAT.md` says which states are served and how variations become
/// rules.
public struct StringCatalog: Sendable, Hashable {
    /// The language the keys are written in (`sourceLanguage`); its value of a key with no localization is
    /// the key itself.
    public var sourceLanguage: String
    /// The format version (`version`, "1.0" today), or `nil` when the file leaves it out.
    public var version: String?
    /// The keys in file order, each once (a key written twice keeps its last definition in the first place).
    public var entries: [Entry]

    /// Creates a catalog.
    public init(sourceLanguage: String, version: String? = nil, entries: [Entry] = []) {
        self.sourceLanguage = sourceLanguage
        self.version = version
        self.entries = entries
    }

    /// One key of `strings`.
    public struct Entry: Sendable, Hashable {
        /// The key.
        public var key: String
        /// The developer's comment for translators.
        public var comment: String?
        /// `extractionState`: `manual`, `stale`, `extracted_with_value`, `migrated` … or `nil` (automatic).
        public var extractionState: String?
        /// `shouldTranslate` (true unless the file says false).
        public var shouldTranslate: Bool
        /// The localizations by language.
        public var localizations: [String: Localization]
        /// Where the key is written in the file.
        public var location: SourceLocation

        /// Creates an entry.
        public init(key: String, comment: String? = nil, extractionState: String? = nil, shouldTranslate: Bool = true,
                    localizations: [String: Localization] = [:], location: SourceLocation = .init(line: 1, column: 1))
        {
            self.key = key
            self.comment = comment
            self.extractionState = extractionState
            self.shouldTranslate = shouldTranslate
            self.localizations = localizations
            self.location = location
        }
    }

    /// A key's text in one language (or one case of a variation): a string unit, or variations whose cases
    /// are localizations again; `substitutions` define the `%#@name@` variables its text uses.
    public struct Localization: Sendable, Hashable {
        /// The text and its state; `nil` when variations give the text.
        public var stringUnit: StringUnit?
        /// Texts by plural category or by device; they win over `stringUnit` when both are written.
        public var variations: Variations?
        /// The `%#@name@` variables by name.
        public var substitutions: [String: Substitution]

        /// Creates a localization.
        public init(stringUnit: StringUnit? = nil, variations: Variations? = nil,
                    substitutions: [String: Substitution] = [:])
        {
            self.stringUnit = stringUnit
            self.variations = variations
            self.substitutions = substitutions
        }

        /// A localization of just a text.
        public static func text(_ value: String, state: StringUnit.State? = .translated) -> Localization {
            Localization(stringUnit: StringUnit(state: state, value: value))
        }
    }

    /// `stringUnit`: a text and its translation state.
    public struct StringUnit: Sendable, Hashable {
        /// A translation state; the file may hold states this version does not know, kept as written.
        public struct State: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
            /// The state as written in the file.
            public var rawValue: String
            /// Creates a state from its name.
            public init(rawValue: String) { self.rawValue = rawValue }
            /// `new`: not translated yet (the value, if any, is a copy of the source).
            public static let new = State(rawValue: "new")
            /// `translated`.
            public static let translated = State(rawValue: "translated")
            /// `needs_review`: translated, to be checked.
            public static let needsReview = State(rawValue: "needs_review")
            /// `stale`: the source changed after the translation.
            public static let stale = State(rawValue: "stale")
            /// The name.
            public var description: String { rawValue }
        }

        /// `state`, or `nil` when the file leaves it out.
        public var state: State?
        /// `value`.
        public var value: String

        /// Creates a string unit.
        public init(state: State?, value: String) {
            self.state = state
            self.value = value
        }
    }

    /// `variations`: texts by plural category or by device; each case may vary again by the other kind.
    public indirect enum Variations: Sendable, Hashable {
        /// `plural`: a localization per CLDR category.
        case plural([PluralCategory: Localization])
        /// `device`: a localization per device (`iphone`, `ipad`, `mac`, `applewatch`, `appletv`,
        /// `applevision`, `ipod`, `other`).
        case device([String: Localization])
    }

    /// One `%#@name@` variable of a localization.
    public struct Substitution: Sendable, Hashable {
        /// `argNum`: which argument (1-based) the variable takes; `nil` for the next one in order.
        public var argumentNumber: Int?
        /// `formatSpecifier`: the argument's conversion without `%` (`lld`, `d`, `@`, `f`).
        public var formatSpecifier: String?
        /// The texts by plural category (or device); `%arg` in them stands for the variable's own argument.
        public var variations: Variations?

        /// Creates a substitution.
        public init(argumentNumber: Int? = nil, formatSpecifier: String? = nil, variations: Variations? = nil) {
            self.argumentNumber = argumentNumber
            self.formatSpecifier = formatSpecifier
            self.variations = variations
        }
    }
}

extension StringCatalog {
    /// The largest input the reader takes, as for `.strings` files.
    public static let maximumSize = StringsFile.maximumSize

    /// Reads the bytes of a `.xcstrings` file (UTF-8 JSON, optionally with a byte order mark).
    ///
    /// - Throws: `ParseError` with the line and column of the first problem: JSON syntax, a member of the
    ///   wrong type, an unknown plural category, a variation nested in a way a build cannot compile, a
    ///   localization whose substitutions nest or expand beyond `StringsdictEntry.maximumNesting` and
    ///   `maximumExpandedSize` (at its language, naming the key).
    /// - Complexity: O(n) in the number of bytes, for any input.
    public static func parse(_ bytes: UnsafeRawBufferPointer) throws(ParseError) -> StringCatalog {
        guard bytes.count <= maximumSize else {
            throw ParseError("the file is \(bytes.count) bytes; more than \(maximumSize) cannot be a catalog",
                             line: 1, column: 1)
        }
        var reader = StringCatalogReader(bytes.bindMemory(to: UInt8.self))
        return try reader.readCatalog()
    }

    /// Reads the bytes of a `.xcstrings` file.
    ///
    /// - Throws: `ParseError` with the line and column of the first problem.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> StringCatalog {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(ParseError) in try parse(buffer) } }
        return try result.get()
    }

    /// The languages the catalog has text for: the source language and every language of a localization,
    /// sorted with the source language first.
    public var languages: [String] {
        var others = Set<String>()
        for entry in entries { others.formUnion(entry.localizations.keys) }
        others.remove(sourceLanguage)
        return [sourceLanguage] + others.sorted()
    }
}
