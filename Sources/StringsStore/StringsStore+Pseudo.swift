import BundleChanges
import StringsFormat

/// Pseudo-languages (`en-XA`, `ar-XB`), served when the store is made with `pseudoLanguages`.
///
/// They are derived where every other table is made, in `servedTable(for:)`: a batch that touches a table of the
/// development language also touches its pseudo tables (`remember(_:in:)`), so they are recomputed in the same
/// `apply` and reported in the same `reload`, naming the development language's file. They live in `served` like
/// any table, so a lookup, a snapshot or `languages` costs what it costs for any language. A folder of the same
/// name (`en-XA.lproj`) is not served while they are.
extension StringsStore {
    /// The pseudo-languages this store serves (none unless made with `pseudoLanguages`), as `languages` names them.
    package nonisolated var pseudoLanguages: Set<String> { Set(pseudoLocalizers.map(\.language.identifier)) }

    /// The pseudo-language served as `language`, when this store serves it.
    func pseudoLocalizer(for language: LanguageTag) -> PseudoLocalizer? {
        guard !pseudoLocalizers.isEmpty, let localizer = PseudoLocalizer(language: language),
              pseudoLocalizers.contains(localizer) else { return nil }
        return localizer
    }

    /// The development language's table `id.table`, transformed; its file and stamps are the source's, so it
    /// changes exactly when the source does.
    func pseudoTable(_ id: TableID, _ localizer: PseudoLocalizer) -> Served? {
        guard var source = servedTable(for: TableID(language: developmentTag, table: id.table)) else { return nil }
        source.content = localizer.transform(source.content)
        return source
    }
}
