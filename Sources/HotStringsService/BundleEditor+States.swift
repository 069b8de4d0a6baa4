import BundleChanges
import HotStringsLint
import StringsFormat

extension BundleEditor {
    /// The translation states of `table`'s String Catalog entries, by key and language: those not `translated`
    /// (`new`, `needs_review`, `stale`, or a state this version does not know), read from the catalog files as they
    /// are on disk. The store serves values, not states, so the page's state filters ask here.
    ///
    /// A localization whose string units (variations and substitutions included) differ in state gets the one
    /// furthest from done: `new`, then `stale`, then `needs_review`.
    func catalogStates(table: String) -> [String: [String: String]] {
        var states: [String: [String: String]] = [:]
        for path in catalogFiles(ofTable: table) {
            guard let catalog = catalog(path) else { continue }
            for entry in catalog.entries {
                for (language, localization) in entry.localizations {
                    guard let state = Self.leastDone(localization) else { continue }
                    let tag = LanguageTag(language)?.identifier ?? language
                    states[entry.key, default: [:]][tag] = state.rawValue
                }
            }
        }
        return states
    }

    private static let order: [StringCatalog.StringUnit.State] = [.new, .stale, .needsReview]

    private static func leastDone(_ localization: StringCatalog.Localization) -> StringCatalog.StringUnit.State? {
        let states = CatalogLinter.unitStates(localization).filter { $0 != .translated }
        return order.first(where: states.contains) ?? states.min { $0.rawValue < $1.rawValue }
    }
}
