import BundleChanges
import StringsFormat

/// Something subscribers must hear about, numbered by the store's `seq`.
package enum StoreEvent: Sendable, Equatable {
    /// One applied batch changed these tables (one change per table, sorted by language and table).
    case reload(seq: UInt64, changes: [TableChange])
    /// A file failed to be read or parsed; the last good table stays served.
    case error(seq: UInt64, FileProblem)
    /// Subscribers must take a fresh snapshot; comes before the reload of the same batch.
    case resync(seq: UInt64, reason: ResyncReason)
    /// The selected app language changed (`nil` when cleared).
    case language(seq: UInt64, language: LanguageTag?, previous: LanguageTag?)

    /// The event's sequence number.
    package var seq: UInt64 {
        switch self {
        case .reload(let seq, _), .error(let seq, _), .resync(let seq, _), .language(let seq, _, _): seq
        }
    }
}
