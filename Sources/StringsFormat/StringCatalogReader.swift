/// Decodes a String Catalog straight from the JSON scanner into `StringCatalog`, so each value's byte offset
/// is at hand for errors and no intermediate tree is built.
///
/// Members the format does not define are skipped (checked as JSON), so catalogs of a newer Xcode still load;
/// a defined member of the wrong type is an error at that member's value.
struct StringCatalogReader {
    typealias Failure = JSONSyntaxError

    var scanner: JSONScanner
    /// Whether entries get their line and column; a reader that reads only some entries of a file leaves them out
    /// (counting lines up to the entry would cost a pass over the bytes before it).
    var countsLines = true
    /// Counts lines up to each entry's key.
    private var lines = LineCounter()

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        // The scanner checks the UTF-8 of each string it reads, and outside strings JSON is ASCII, so a file that
        // reads whole is UTF-8; only a failed read looks for invalid UTF-8, which is then the error reported.
        scanner = JSONScanner(bytes)
        // A UTF-8 byte order mark is skipped; offsets stay those of the file.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { scanner.skip(3) }
    }

    mutating func readCatalog() throws(ParseError) -> StringCatalog {
        var entries: [StringCatalog.Entry] = []
        var positions: [String: Int] = [:]
        let (sourceLanguage, version) = try read { reader throws(Failure) in
            try reader.readStrings(into: &entries, positions: &positions)
        }
        return StringCatalog(sourceLanguage: sourceLanguage, version: version, entries: entries)
    }

    /// Reads the document, `readStrings` reading the value of `strings`; errors carry their line and column.
    mutating func read(strings readStrings: (inout Self) throws(Failure) -> Void)
        throws(ParseError) -> (sourceLanguage: String, version: String?)
    {
        do throws(Failure) {
            do throws(Failure) {
                return try readDocument(strings: readStrings)
            } catch {
                if let (offset, reason) = UTF8Validation.firstError(in: scanner.bytes) {
                    throw Failure("not UTF-8 text: \(reason)", offset: offset)
                }
                throw error
            }
        } catch {
            let place = ParseError.location(of: error.offset, in: scanner.bytes)
            throw ParseError(error.reason, line: place.line, column: place.column, byteOffset: error.offset)
        }
    }

    private mutating func readDocument(strings readStrings: (inout Self) throws(Failure) -> Void)
        throws(Failure) -> (sourceLanguage: String, version: String?)
    {
        guard scanner.peek() == UInt8(ascii: "{") else { throw scanner.error("a catalog is a JSON object") }
        try scanner.beginObject()
        var sourceLanguage: String?
        var version: String?
        var sawStrings = false
        var isFirst = true
        while let (name, _) = try scanner.nextMember(isFirst: &isFirst) {
            switch name {
            case "sourceLanguage": sourceLanguage = try string(name)
            case "version": version = try string(name)
            case "strings":
                sawStrings = true
                try readStrings(&self)
            default: try scanner.skipValue()
            }
        }
        try scanner.finish()
        guard let sourceLanguage else { throw Failure("the catalog has no 'sourceLanguage'", offset: 0) }
        guard sawStrings else { throw Failure("the catalog has no 'strings'", offset: 0) }
        return (sourceLanguage, version)
    }

    private mutating func readStrings(into entries: inout [StringCatalog.Entry], positions: inout [String: Int])
        throws(Failure)
    {
        try expectObject("strings")
        var isFirst = true
        while let (key, offset) = try scanner.nextMember(isFirst: &isFirst) {
            let entry = try readEntry(key: key, at: offset)
            if let position = positions[key] {
                entries[position] = entry  // JSON's last-one-wins, in the first one's place
            } else {
                positions[key] = entries.count
                entries.append(entry)
            }
        }
    }

    mutating func readEntry(key: String, at offset: Int) throws(Failure) -> StringCatalog.Entry {
        var entry = StringCatalog.Entry(key: key, location: countsLines ? location(of: offset) : .init(line: 0, column: 0))
        try expectObject("the entry of a key")
        var isFirst = true
        while let (name, _) = try scanner.nextMember(isFirst: &isFirst) {
            switch name {
            case "comment": entry.comment = try string(name)
            case "extractionState": entry.extractionState = try string(name)
            case "shouldTranslate":
                guard let byte = scanner.peek(), byte == UInt8(ascii: "t") || byte == UInt8(ascii: "f") else {
                    throw scanner.error("'shouldTranslate' must be true or false")
                }
                entry.shouldTranslate = try scanner.readBool()
            case "localizations":
                try expectObject(name)
                var isFirstLanguage = true
                while let (language, languageOffset) = try scanner.nextMember(isFirst: &isFirstLanguage) {
                    let localization = try readLocalization(nesting: [])
                    do throws(FormatError) {
                        try localization.checkExpansionBounds()
                    } catch {
                        throw Failure("key '\(key)', language '\(language)': \(error.reason)", offset: languageOffset)
                    }
                    entry.localizations[language] = localization
                }
            default: try scanner.skipValue()
            }
        }
        return entry
    }

    /// Reads a localization or a variation's case; `nesting` lists the variation kinds it is inside.
    private mutating func readLocalization(nesting: [String]) throws(Failure) -> StringCatalog.Localization {
        try expectObject(nesting.isEmpty ? "a localization" : "a variation")
        var localization = StringCatalog.Localization()
        var isFirst = true
        while let (name, _) = try scanner.nextMember(isFirst: &isFirst) {
            switch name {
            case "stringUnit": localization.stringUnit = try readStringUnit()
            case "variations": localization.variations = try readVariations(nesting: nesting)
            case "substitutions":
                guard nesting.isEmpty else {
                    throw scanner.error("substitutions belong to the localization, not to a variation")
                }
                localization.substitutions = try readSubstitutions()
            default: try scanner.skipValue()
            }
        }
        return localization
    }

    private mutating func readStringUnit() throws(Failure) -> StringCatalog.StringUnit {
        try expectObject("'stringUnit'")
        let start = scanner.index
        var state: StringCatalog.StringUnit.State?
        var value: String?
        var isFirst = true
        while let (name, _) = try scanner.nextMember(isFirst: &isFirst) {
            switch name {
            case "state": state = .init(rawValue: try string(name))
            case "value": value = try string(name)
            default: try scanner.skipValue()
            }
        }
        guard let value else { throw Failure("the string unit has no 'value'", offset: start) }
        return StringCatalog.StringUnit(state: state, value: value)
    }

    private mutating func readVariations(nesting: [String]) throws(Failure) -> StringCatalog.Variations {
        try expectObject("'variations'")
        let start = scanner.index
        var variations: StringCatalog.Variations?
        var isFirst = true
        while let (kind, offset) = try scanner.nextMember(isFirst: &isFirst) {
            guard variations == nil else {
                throw Failure("'variations' may vary by one thing at a time, not also by '\(kind)'", offset: offset)
            }
            guard kind == "plural" || kind == "device" else {
                throw Failure("unknown variation '\(kind)' (a build knows 'plural' and 'device')", offset: offset)
            }
            guard !nesting.contains(kind) else {
                throw Failure("a '\(kind)' variation inside a '\(kind)' variation", offset: offset)
            }
            if nesting.first == "substitution" {
                guard kind == "plural" else {
                    throw Failure("a substitution varies by plural only, not by '\(kind)'", offset: offset)
                }
            }
            try expectObject("'\(kind)'")
            var isFirstCase = true
            if kind == "plural" {
                var cases: [PluralCategory: StringCatalog.Localization] = [:]
                while let (name, caseOffset) = try scanner.nextMember(isFirst: &isFirstCase) {
                    guard let category = PluralCategory(rawValue: name) else {
                        throw Failure("'\(name)' is not a plural category (zero, one, two, few, many, other)",
                                      offset: caseOffset)
                    }
                    cases[category] = try readCase(nesting: nesting + [kind])
                }
                variations = .plural(cases)
            } else {
                var cases: [String: StringCatalog.Localization] = [:]
                while let (device, _) = try scanner.nextMember(isFirst: &isFirstCase) {
                    cases[device] = try readCase(nesting: nesting + [kind])
                }
                variations = .device(cases)
            }
        }
        guard let variations else { throw Failure("'variations' is empty", offset: start) }
        return variations
    }

    /// A case of a substitution's variation holds only a string unit; other cases may vary once more.
    private mutating func readCase(nesting: [String]) throws(Failure) -> StringCatalog.Localization {
        let start = scanner.index
        let localization = try readLocalization(nesting: nesting)
        if nesting.first == "substitution", localization.variations != nil {
            throw Failure("a substitution's cases cannot vary again", offset: start)
        }
        return localization
    }

    private mutating func readSubstitutions() throws(Failure) -> [String: StringCatalog.Substitution] {
        try expectObject("'substitutions'")
        var substitutions: [String: StringCatalog.Substitution] = [:]
        var isFirst = true
        while let (variable, _) = try scanner.nextMember(isFirst: &isFirst) {
            try expectObject("a substitution")
            var substitution = StringCatalog.Substitution()
            var isFirstMember = true
            while let (name, _) = try scanner.nextMember(isFirst: &isFirstMember) {
                switch name {
                case "argNum":
                    let offset = scanner.index
                    guard case .integer(let number) = try scanner.readNumber(), number >= 1, number <= 1000 else {
                        throw Failure("'argNum' must be an integer from 1 to 1000", offset: offset)
                    }
                    substitution.argumentNumber = Int(number)
                case "formatSpecifier": substitution.formatSpecifier = try string(name)
                case "variations": substitution.variations = try readVariations(nesting: ["substitution"])
                default: try scanner.skipValue()
                }
            }
            substitutions[variable] = substitution
        }
        return substitutions
    }

    // MARK: Values

    private mutating func string(_ name: String) throws(Failure) -> String {
        guard scanner.peek() == JSONScanner.quote else { throw scanner.error("'\(name)' must be a string") }
        return try scanner.readString()
    }

    mutating func expectObject(_ what: String) throws(Failure) {
        guard scanner.peek() == UInt8(ascii: "{") else {
            throw scanner.error(scanner.peek() == nil ? "unexpected end of input" : "\(what) must be a JSON object")
        }
        try scanner.beginObject()
    }

    /// The line and column of `offset` (offsets asked for only grow, so the file is counted through once).
    private mutating func location(of offset: Int) -> SourceLocation {
        lines.location(of: offset, in: scanner.bytes)
    }
}
