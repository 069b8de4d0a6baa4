/// One client request of protocol version 1, decoded and validated.
package enum Request: Sendable, Equatable {
    /// `hello`: the server introduces itself; `client` names the caller for logs.
    case hello(client: String?)
    /// `languages`: the bundle's languages, their tables and key counts.
    case languages
    /// `get`: one value, resolved through `languages` (a preference list, `[]` when none was given).
    case get(key: String, table: String, languages: [String])
    /// `table`: every entry of one table.
    case table(language: String, table: String)
    /// `subscribe`: events from now on, filtered, after an optional snapshot.
    case subscribe(Subscription)
    /// `unsubscribe`: no more events.
    case unsubscribe
    /// `select-language`: select the app language, or clear it with `nil`.
    case selectLanguage(String?)
    /// `status`: the daemon's health.
    case status
    /// `set`: writes one key of one language back into the bundle's files.
    case set(Write)
    /// `remove`: removes one key of one language from the bundle's files.
    case remove(key: String, language: String, table: String)
    /// `check`: what a `set` would write and what is wrong with its format specifiers; writes nothing.
    case check(Write)
    /// `report-missing`: keys a client's lookups missed or found only through a fallback (see `MissingReport`).
    case reportMissing(MissingReport)
    /// `missing`: the keys every client reported, optionally of one requested language or one table.
    case missing(language: String?, table: String?)
    /// `states`: the translation states of a table's String Catalog entries that are not `translated`.
    case states(table: String)
    /// `lint`: the checks `hotstrings lint` makes, over the whole bundle.
    case lint

    /// The table used when a request names none.
    package static let defaultTable = "Localizable"

    /// The `op` string on the wire, e.g. `"select-language"`.
    package var op: String {
        switch self {
        case .hello: "hello"
        case .languages: "languages"
        case .get: "get"
        case .table: "table"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .selectLanguage: "select-language"
        case .status: "status"
        case .set: "set"
        case .remove: "remove"
        case .check: "check"
        case .reportMissing: "report-missing"
        case .missing: "missing"
        case .states: "states"
        case .lint: "lint"
        }
    }

    /// Every op of protocol version 1.
    package static let ops = [
        "hello", "languages", "get", "table", "subscribe", "unsubscribe", "select-language", "status", "set", "remove",
        "check", "report-missing", "missing", "states", "lint",
    ]
}

/// The parameters of a `subscribe` request.
package struct Subscription: Sendable, Hashable {
    /// Only tables of these languages (as the client spelled them), or all when `nil`.
    package var languages: [String]?
    /// Only these table names, or all when `nil`.
    package var tables: [String]?
    /// Whether a `snapshot` event follows the response (unless `since` is still current).
    package var snapshot: Bool
    /// Where the client's mirror stands; when it is still current, no snapshot is sent.
    package var since: StreamPosition?

    /// Creates a subscription; the defaults subscribe to everything with a snapshot.
    package init(
        languages: [String]? = nil, tables: [String]? = nil, snapshot: Bool = true, since: StreamPosition? = nil
    ) {
        self.languages = languages
        self.tables = tables
        self.snapshot = snapshot
        self.since = since
    }
}

/// A point in a daemon's event stream: its `epoch` and the `seq` of the last event seen.
package struct StreamPosition: Sendable, Hashable {
    /// The daemon's epoch, random per start.
    package var epoch: UInt64
    /// The sequence number of the last event seen.
    package var seq: UInt64

    /// Creates a position.
    package init(epoch: UInt64, seq: UInt64) {
        self.epoch = epoch
        self.seq = seq
    }
}

/// The parameters of a `set` request.
package struct Write: Sendable, Hashable {
    /// The key.
    package var key: String
    /// The value: the key's, or its plural form's.
    package var value: String
    /// The language, as `languages` lists it.
    package var language: String
    /// The table.
    package var table: String
    /// The `.stringsdict` plural form (`one`, `other` …), when one form is set.
    package var form: String?
    /// The entry's variable, for a form of an entry with several.
    package var variable: String?
    /// The device (`iphone`, `mac`, `other` …) whose text (or, with `form`, whose plural form) of a String Catalog's
    /// device variations or a `.stringsdict` entry's `NSStringDeviceSpecificRuleType` is set.
    package var device: String?
    /// The comment above a new entry.
    package var comment: String?
    /// Whether a language the bundle does not serve yet gets its folder.
    package var createLanguage: Bool
    /// Whether a value whose format specifiers differ from the development language's is written anyway.
    package var force: Bool

    /// A `set` of `key` to `value` in `language`'s `table`.
    package init(key: String, value: String, language: String, table: String = Request.defaultTable,
                 form: String? = nil, variable: String? = nil, device: String? = nil, comment: String? = nil,
                 createLanguage: Bool = false, force: Bool = false) {
        self.key = key
        self.value = value
        self.language = language
        self.table = table
        self.form = form
        self.variable = variable
        self.device = device
        self.comment = comment
        self.createLanguage = createLanguage
        self.force = force
    }
}
