import HotStringsProtocol
import StringsFormat

/// What a subscriber asked for: languages and tables, nil for all.
package struct SubscriptionFilter: Hashable, Sendable {
    /// Canonical language tags, or nil for all.
    package var languages: Set<String>?
    /// Table names, or nil for all.
    package var tables: Set<String>?

    /// A filter from a `subscribe` request: language tags are canonicalized, unknown spellings dropped.
    package init(_ subscription: Subscription) {
        languages = subscription.languages.map { Set($0.compactMap { LanguageTag($0)?.identifier }) }
        tables = subscription.tables.map(Set.init)
    }

    /// Whether changes to `table` in `language` reach this subscriber.
    package func includes(language: String, table: String) -> Bool {
        (languages?.contains(language) ?? true) && (tables?.contains(table) ?? true)
    }
}
