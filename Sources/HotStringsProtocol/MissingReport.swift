import StringsFormat

/// One key a client's lookups missed, as reported (`report-missing`) and as the daemon answers (`missing`): the
/// lookups that found no value, or that a language other than the requested one's best match answered.
///
/// Only names travel: the table, the key and languages, never an argument or a value.
package struct MissingEntry: Sendable, Hashable {
    /// Why the lookup is worth reporting.
    package enum Kind: String, Sendable, Hashable {
        /// No table of the chain had the key: the app showed the key itself (or its default value).
        case missing
        /// A language other than the best match of the language asked for answered (`de-CH` answered by `en`;
        /// by `de` it is no fallback).
        case fallback
    }

    /// What an entry is counted under: all but the counts and times.
    package struct Identity: Sendable, Hashable {
        package var kind: Kind
        package var table: String
        package var key: String
        /// The first language the lookup asked for (the client's current language), canonical.
        package var language: String
        /// The language that answered a fallback; nil for a missing key.
        package var servedBy: String?

        /// An identity.
        package init(kind: Kind, table: String, key: String, language: String, servedBy: String?) {
            self.kind = kind
            self.table = table
            self.key = key
            self.language = language
            self.servedBy = servedBy
        }
    }

    package var identity: Identity
    /// How many lookups (since the last report, in a report; in all, in the daemon's answer).
    package var count: Int64
    /// The first and the last lookup, in milliseconds since 1970 (UTC).
    package var firstSeen: Int64
    package var lastSeen: Int64

    /// An entry.
    package init(_ identity: Identity, count: Int64, firstSeen: Int64, lastSeen: Int64) {
        self.identity = identity
        self.count = count
        self.firstSeen = firstSeen
        self.lastSeen = lastSeen
    }

    /// The longest key (in UTF-8 bytes) a report may carry; a table name's longest is 255 bytes, a language
    /// tag's 64.
    package static let maximumKeyLength = 4096

    /// `{"kind", "table", "key", "language", "servedBy"?, "count", "firstSeen", "lastSeen"}`, times in RFC 3339.
    package var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("kind", .string(identity.kind.rawValue)), ("table", .string(identity.table)),
            ("key", .string(identity.key)), ("language", .string(identity.language)),
        ]
        if let servedBy = identity.servedBy { members.append(("servedBy", .string(servedBy))) }
        members += [
            ("count", .integer(count)), ("firstSeen", .string(RFC3339.string(milliseconds: firstSeen))),
            ("lastSeen", .string(RFC3339.string(milliseconds: lastSeen))),
        ]
        return .object(members)
    }

    /// Reads one entry of a report, checking every field: the daemon keeps only what passes.
    package init(json: JSONValue) throws(ProtocolError) {
        guard let members = json.objectMembers else { throw .badRequest("each entry must be an object") }
        func field(_ name: String) -> JSONValue? { members.last { $0.0 == name }?.1 }
        func string(_ name: String, limit: Int) throws(ProtocolError) -> String {
            guard let value = field(name)?.stringValue, !value.isEmpty else {
                throw .badRequest("entry field '\(name)' must be a non-empty string")
            }
            guard value.utf8.count <= limit else {
                throw .badRequest("entry field '\(name)' is longer than \(limit) bytes")
            }
            return value
        }
        func language(_ name: String) throws(ProtocolError) -> String {
            guard let tag = LanguageTag(try string(name, limit: 64)) else {
                throw .badRequest("entry field '\(name)' must be a language tag")
            }
            return tag.identifier
        }
        func time(_ name: String) throws(ProtocolError) -> Int64 {
            guard let text = field(name)?.stringValue, let time = RFC3339.milliseconds(text) else {
                throw .badRequest("entry field '\(name)' must be an RFC 3339 time in UTC")
            }
            return time
        }
        guard let kindName = field("kind")?.stringValue, let kind = Kind(rawValue: kindName) else {
            throw .badRequest("entry field 'kind' must be \"missing\" or \"fallback\"")
        }
        let table = try string("table", limit: 255)
        let key = try string("key", limit: Self.maximumKeyLength)
        let requested = try language("language")
        var servedBy: String?
        switch (kind, field("servedBy")) {
        case (.fallback, _): servedBy = try language("servedBy")
        case (.missing, nil), (.missing, .null?): servedBy = nil
        case (.missing, _?): throw .badRequest("a missing entry has no 'servedBy'")
        }
        guard let count = field("count")?.int64Value, count > 0 else {
            throw .badRequest("entry field 'count' must be a positive integer")
        }
        let first = try time("firstSeen")
        let last = try time("lastSeen")
        guard first <= last else { throw .badRequest("entry 'firstSeen' is after its 'lastSeen'") }
        self.init(Identity(kind: kind, table: table, key: key, language: requested, servedBy: servedBy),
                  count: count, firstSeen: first, lastSeen: last)
    }
}

/// What a client sends with `report-missing`: the entries seen since its last report, and how many it could
/// not keep (its cap on distinct entries was reached).
package struct MissingReport: Sendable, Hashable {
    /// The most entries one report may carry; a longer report is refused whole.
    package static let maximumEntries = 1024

    package var entries: [MissingEntry]
    /// Lookups the client could not record since its last report.
    package var dropped: Int64

    /// A report.
    package init(entries: [MissingEntry], dropped: Int64) {
        self.entries = entries
        self.dropped = dropped
    }
}

/// `missing`'s answer: the keys every client reported, most looked-up first, and what the caps dropped.
package struct MissingAnswer: AnswerBody {
    /// The entries, with the counts and times summed over every report.
    package var entries: [MissingEntry]
    /// Entries of reports that found the daemon's cap reached.
    package var dropped: Int64
    /// Lookups clients reported they could not record.
    package var droppedByClients: Int64

    /// An answer.
    package init(entries: [MissingEntry], dropped: Int64, droppedByClients: Int64) {
        self.entries = entries
        self.dropped = dropped
        self.droppedByClients = droppedByClients
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("missing")
        var entries: [MissingEntry] = []
        for entry in try reader.array("entries") {
            do {
                entries.append(try MissingEntry(json: entry.value))
            } catch {
                throw MalformedMessage("\(entry.path): \(error.message)")
            }
        }
        self.init(entries: entries, dropped: try reader.int64("dropped"),
                  droppedByClients: try reader.int64("droppedByClients"))
    }

    package func appendMembers(to out: inout [UInt8]) {
        Self.append([
            ("entries", .array(entries.map(\.json))), ("dropped", .number(dropped)),
            ("droppedByClients", .number(droppedByClients)),
        ], to: &out)
    }
}

/// RFC 3339 times in UTC with milliseconds (`2026-12-04T22:31:05.123Z`), without Foundation.
package enum RFC3339 {
    /// `milliseconds` since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    package static func string(milliseconds: Int64) -> String {
        let (days, inDay) = milliseconds.quotientAndRemainder(dividingBy: 86_400_000)
        let (dayNumber, dayMilliseconds) = inDay < 0 ? (days - 1, inDay + 86_400_000) : (days, inDay)
        let (year, month, day) = civil(fromDays: dayNumber)
        func pad(_ value: Int64, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let seconds = dayMilliseconds / 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):"
            + "\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2)).\(pad(dayMilliseconds % 1000, 3))Z"
    }

    /// The milliseconds since 1970 of `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (or `+00:00`), or nil.
    package static func milliseconds(_ text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, bytes.count <= 40 else { return nil }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                guard (0x30...0x39).contains(bytes[index]) else { return nil }
                value = value * 10 + Int64(bytes[index] - 0x30)
            }
            return value
        }
        guard bytes[4] == 0x2D, bytes[7] == 0x2D, bytes[10] == 0x54 || bytes[10] == 0x74, bytes[13] == 0x3A,
              bytes[16] == 0x3A, let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var fraction: Int64 = 0
        if bytes[index] == 0x2E {
            index += 1
            var digits = 0
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                if digits < 3 { fraction = fraction * 10 + Int64(bytes[index] - 0x30) }
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            for _ in min(digits, 3)..<3 { fraction *= 10 }
        }
        let zone = bytes[index...]
        guard zone.elementsEqual([0x5A]) || zone.elementsEqual([0x7A]) || zone.elementsEqual("+00:00".utf8)
        else { return nil }
        let days = Self.days(year: year, month: month, day: day)
        return ((days * 24 + hour) * 60 + minute) * 60_000 + second * 1000 + fraction
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a day number since 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
