import BundleChanges
import StringsFormat

/// An event's payload in typed form, for clients that keep a mirror of the tables.
package enum ServerEvent: Sendable, Equatable {
    /// Every table the subscription covers, with all entries: replace the mirror.
    case snapshot(tables: [TablePayload])
    /// Tables that changed in one settled batch: apply the changes in order.
    case reload(changes: [ChangePayload])
    /// `file` failed to parse (`line` and `column` are `nil` when not known); its last good table stays.
    case error(file: String, line: Int?, column: Int?, message: String)
    /// The selected app language changed to `language` (`nil`: cleared) from `previous`.
    case language(language: LanguageTag?, previous: LanguageTag?)
    /// The mirror may be stale (`overflow`, `root-removed`, `root-restored`, `slow-client`); a snapshot follows.
    case resync(reason: String)
    /// An event this protocol version does not know, to be skipped.
    case unknown(name: String, body: JSONValue)

    /// Reads the payload of the event `name` from its `body`, as `ServerMessage.event` gives them.
    ///
    /// - Throws: `MalformedMessage` naming the member that is missing or of the wrong type.
    package init(name: String, body: JSONValue) throws(MalformedMessage) {
        let reader = MemberReader(value: body, path: name)
        switch name {
        case "snapshot":
            self = .snapshot(tables: try reader.array("tables").map { table throws(MalformedMessage) in
                TablePayload(language: try table.languageTag("language"), table: try table.string("table"),
                             file: try table.string("file"), entries: try table.pairs("entries"),
                             rules: try table.rules())
            })
        case "reload":
            self = .reload(changes: try reader.array("changes").map { change throws(MalformedMessage) in
                let kindName = try change.string("kind")
                guard let kind = ChangeKind(rawValue: kindName) else {
                    throw MalformedMessage("\(change.path).kind: unknown kind '\(kindName)'")
                }
                return ChangePayload(language: try change.languageTag("language"), table: try change.string("table"),
                                     file: try change.string("file"), kind: kind, added: try change.pairs("added"),
                                     changed: try change.pairs("changed"), removed: try change.strings("removed"),
                                     rules: try change.rules())
            })
        case "error":
            self = .error(file: try reader.string("file"), line: try reader.optionalInt("line"),
                          column: try reader.optionalInt("column"), message: try reader.string("message"))
        case "language":
            self = .language(language: try reader.optionalLanguageTag("language"),
                             previous: try reader.optionalLanguageTag("previous"))
        case "resync":
            self = .resync(reason: try reader.string("reason"))
        default:
            self = .unknown(name: name, body: body)
        }
    }
}
