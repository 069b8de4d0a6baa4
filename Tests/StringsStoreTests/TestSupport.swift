import BundleChanges
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
    parsed(file: path(folder, table), id: tableID(folder, table), contents)
}

/// An update of `file`, holding the table `id`, to the strings `contents`.
func parsed(file: String, id: TableID, _ contents: StringsTable) -> TableUpdate {
    TableUpdate(id: id, file: file, content: .parsed(TableContent(strings: contents)))
}

/// An update of the file `folder.lproj/table.stringsdict` to `rules`.
func parsedRules(_ folder: String, _ rules: String, table: String = "Localizable") throws -> TableUpdate {
    TableUpdate(id: tableID(folder, table), file: "\(folder).lproj/\(table).stringsdict",
                content: .parsed(TableContent(rules: try StringsdictFile.parse(text: rules))))
}

/// A `.stringsdict` with one plural entry per key: `key` → (format, variable name, forms by category).
func stringsdict(_ entries: [String: (format: String, variable: String, forms: [String: String])]) -> String {
    var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n"
    for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
        xml += "<key>\(key)</key>\n<dict>\n<key>NSStringLocalizedFormatKey</key><string>\(entry.format)</string>\n"
        xml += "<key>\(entry.variable)</key>\n<dict>\n"
        xml += "<key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>\n"
        xml += "<key>NSStringFormatValueTypeKey</key><string>d</string>\n"
        for (category, text) in entry.forms.sorted(by: { $0.key < $1.key }) {
            xml += "<key>\(category)</key><string>\(text)</string>\n"
        }
        xml += "</dict>\n</dict>\n"
    }
    return xml + "</dict>\n</plist>\n"
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
    _ = await store.apply(ChangeBatch(updates: tables.map { parsed($0.0, $0.2, table: $0.1) }, isFullScan: true))
    return store
}

extension TableChange {
    /// A change of the table in `language`, which must be a valid tag (cases read better with the tag's text).
    init(language: String, table: String, file: String, kind: ChangeKind,
         added: [KeyValue] = [], changed: [KeyValue] = [], removed: [String] = []) {
        guard let tag = LanguageTag(language) else { preconditionFailure("bad tag \(language)") }
        self.init(language: tag, table: table, file: file, kind: kind, added: added, changed: changed, removed: removed)
    }
}
