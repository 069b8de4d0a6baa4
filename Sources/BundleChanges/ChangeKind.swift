/// Whether a table appeared, changed or disappeared: one word from the store's diff to a `reload` event's
/// `kind` on the wire (its raw value), so no layer translates it.
package enum ChangeKind: String, Sendable, Hashable, CaseIterable {
    /// The table did not exist before the batch; every key is added.
    case created
    /// The table existed and some keys or values differ.
    case updated
    /// The table is gone; every key is removed.
    case deleted
}
