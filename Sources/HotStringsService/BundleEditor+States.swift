import BundleChanges
import HotStringsLint
import StringsFormat

extension BundleEditor {
    /// The translation states of a table's String Catalog entries, by key and language: those not `translated`
    /// (`new`, `needs_review`, `stale`, or a state this version does not know), read from the catalog files as
    /// they are on disk. The store serves values, not states, so the page's state filters ask here.
    struct CatalogStates: Sendable, Equatable {
        /// The state of each key in each language that has one other than `translated`.
        var states: [String: [String: String]] = [:]

        /// `{"key": {"language": "state"}}`, keys and languages sorted.
        var json: JSONValue {
            .object(states.sorted { $0.key < $1.key }.map { key, languages in
                (key, .object(languages.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
            })
        }
    }

    /// The states of `table`'s catalogs; a localization whose string units (variations and substitutions
    /// included) differ in state gets the one furthest from done: `new`, then `stale`, then `needs_review`.
    func catalogStates(table: String) -> CatalogStates {
        var result = CatalogStates()
        for path in catalogFiles(ofTable: table) {
            guard let catalog = catalog(path) else { continue }
            for entry in catalog.entries {
                for (language, localization) in entry.localizations {
                    guard let state = Self.leastDone(localization) else { continue }
                    let tag = LanguageTag(language)?.identifier ?? language
                    result.states[entry.key, default: [:]][tag] = state.rawValue
                }
            }
        }
        return result
    }

    private static let order: [StringCatalog.StringUnit.State] = [.new, .stale, .needsReview]

    private static func leastDone(_ localization: StringCatalog.Localization) -> StringCatalog.StringUnit.State? {
        let states = CatalogLinter.unitStates(localization).filter { $0 != .translated }
        return order.first(where: states.contains) ?? states.min { $0.rawValue < $1.rawValue }
    }
}
