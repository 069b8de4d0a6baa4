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
    /// `set`: writes one key of one language back into the bundle's files (a value or a plural form, never a
    /// removal).
    case set(Edit)
    /// `remove`: removes one key of one language from the bundle's files.
    case remove(key: String, language: String, table: String)
    /// `check`: what a `set` would write and what is wrong with its format specifiers; writes nothing.
    case check(Edit)
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
