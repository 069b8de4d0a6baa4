import HotStringsProtocol
import StringsFormat

/// What a subscriber asked for: languages and tables, nil for all.
package struct SubscriptionFilter: Hashable, Sendable {
    /// Language tags, or nil for all.
    package var languages: Set<LanguageTag>?
    /// Table names, or nil for all.
    package var tables: Set<String>?

    /// A filter from a `subscribe` request: language tags are canonicalized, unknown spellings dropped.
    package init(_ subscription: Subscription) {
        languages = subscription.languages.map { Set($0.compactMap { LanguageTag($0) }) }
        tables = subscription.tables.map(Set.init)
    }

    /// Whether changes to `table` in `language` reach this subscriber.
    package func includes(language: LanguageTag, table: String) -> Bool {
        (languages?.contains(language) ?? true) && (tables?.contains(table) ?? true)
    }
}
