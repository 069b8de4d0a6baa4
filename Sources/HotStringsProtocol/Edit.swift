/// One edit of one key of one language: what a `set` or `check` request asks (a value or a plural form) and what a
/// `remove` comes to, and what `BundleEditor` makes in the bundle's files, for the daemon, embedded mode and the
/// CLI's `--bundle` alike.
///
/// On the wire its Booleans are `createLanguage` and `force` (docs/PROTOCOL.md); `RequestDecoder` and
/// `RequestEncoder` translate.
package struct Edit: Sendable, Hashable {
    /// What happens to the key.
    package enum Change: Sendable, Hashable {
        /// The key gets `value` (added when new; `comment` goes above a new entry).
        case value(String, comment: String?)
        /// The plural form `form` (`one`, `other` …) of the `.stringsdict` entry (or a catalog's plural variations)
        /// gets `value`; `variable` names the entry's variable when it has more than one.
        case form(String, variable: String?, value: String)
        /// The key's entry is removed.
        case removal
    }

    /// The key.
    package var key: String
    /// The language, as `languages` lists it (`de`, `pt-BR`): a folder's or a catalog's, exactly.
    package var language: String
    /// The table.
    package var table: String
    /// What happens to the key.
    package var change: Change
    /// The device (`iphone`, `mac`, `other` …) whose text, or plural form, of a String Catalog's device variations
    /// or a `.stringsdict` entry's `NSStringDeviceSpecificRuleType` the value or form is; `nil` for the key's own.
    package var device: String?
    /// Whether a language the bundle does not serve yet gets its folder (`L.lproj`): `createLanguage`.
    package var createsLanguage: Bool
    /// Whether a value whose format specifiers have an error is written anyway: `force`.
    package var isForced: Bool

    /// An edit of `key` in `language`'s `table`.
    package init(key: String, language: String, table: String = Request.defaultTable, change: Change,
                 device: String? = nil, createsLanguage: Bool = false, isForced: Bool = false) {
        self.key = key
        self.language = language
        self.table = table
        self.change = change
        self.device = device
        self.createsLanguage = createsLanguage
        self.isForced = isForced
    }

    /// The edit a `set` of these parameters asks for: `form`'s plural form when one is given (with `variable`),
    /// else the value (with `comment` above a new entry).
    package init(key: String, value: String, language: String, table: String = Request.defaultTable,
                 form: String? = nil, variable: String? = nil, device: String? = nil, comment: String? = nil,
                 createsLanguage: Bool = false, isForced: Bool = false) {
        let change: Change = if let form {
            .form(form, variable: variable, value: value)
        } else {
            .value(value, comment: comment)
        }
        self.init(key: key, language: language, table: table, change: change, device: device,
                  createsLanguage: createsLanguage, isForced: isForced)
    }
}
