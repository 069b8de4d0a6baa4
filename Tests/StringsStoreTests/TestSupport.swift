import StringsFormat
@testable import StringsStore

/// A table with `pairs` in order.
func makeTable(_ pairs: KeyValuePairs<String, String>) -> StringsTable {
    StringsTable(pairs.map { StringsEntry(key: $0.key, value: $0.value) })
}

/// A table from pairs given as an array (for test cases stored as data).
func makeTable(_ pairs: [(String, String)]) -> StringsTable {
    StringsTable(pairs.map { StringsEntry(key: $0.0, value: $0.1) })
}

/// The identifier of `table` in `language`, which must be a valid tag.
func tableID(_ language: String, _ table: String = "Localizable") -> TableID {
    guard let tag = LanguageTag(language) else { preconditionFailure("bad tag \(language)") }
    return TableID(language: tag, table: table)
}

/// The conventional path of a table: `de.lproj/Localizable.strings`.
func path(_ folder: String, _ table: String = "Localizable") -> String {
    "\(folder).lproj/\(table).strings"
}

/// An update of the file `folder.lproj/table.strings` to `table`.
func parsed(_ folder: String, _ contents: StringsTable, table: String = "Localizable") -> TableUpdate {
    TableUpdate(id: tableID(folder, table), file: path(folder, table), content: .parsed(contents))
}

/// The removal of the file `folder.lproj/table.strings`.
func removed(_ folder: String, table: String = "Localizable") -> TableUpdate {
    TableUpdate(id: tableID(folder, table), file: path(folder, table), content: .removed)
}

/// A parse failure of the file `folder.lproj/table.strings`.
func failed(_ folder: String, table: String = "Localizable", line: Int = 1, message: String = "bad") -> TableUpdate {
    let problem = FileProblem(file: path(folder, table), line: line, column: 1, message: message)
    return TableUpdate(id: tableID(folder, table), file: path(folder, table), content: .failed(problem))
}

/// `key = value` pairs as a reload reports them.
func pairs(_ pairs: KeyValuePairs<String, String>) -> [KeyValue] {
    pairs.map { KeyValue(key: $0.key, value: $0.value) }
}

/// A store with a fixed epoch holding `tables` (folder, table name, contents), loaded as one scan.
func makeStore(
    _ tables: [(String, String, StringsTable)], developmentLanguage: String = "en", selected: String? = nil
) async -> StringsStore {
    let store = StringsStore(developmentLanguage: developmentLanguage, selectedLanguage: selected, epoch: 42)
    _ = await store.apply(StoreBatch(updates: tables.map { parsed($0.0, $0.2, table: $0.1) }, isFullScan: true))
    return store
}
