/// Edits a `.strings` file's bytes: changes one value, adds or removes one entry, and leaves every other byte.
public enum StringsFileEditor {
    /// The file's bytes with `key` set to `value` (added as `"KEY" = "VALUE";` at the end if absent, after
    /// `/* comment */` if given).
    ///
    /// - Throws: `EditError`: `.invalidValue` for an empty key or a NUL character, `.unreadable` for a file
    ///   that does not parse, `.cannotEdit` for a compiled binary property list.
    public static func setting(
        _ key: String, to value: String, comment: String? = nil, in bytes: [UInt8]
    ) throws(EditError) -> [UInt8] {
        var table: StringsTable
        do { table = try StringsFile.parse(bytes) } catch { throw .unreadable(error) }
        var entries = table.entries
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append(StringsEntry(key: key, value: value, comment: comment))
        }
        return Array(LocalizationFileWriter.stringsText(StringsTable(entries)).utf8)
    }

    /// The file's bytes without the entry for `key` (its comment and its line go too).
    ///
    /// - Throws: `EditError`: `.noSuchKey` if the key is absent, and as `setting` does.
    public static func removing(_ key: String, in bytes: [UInt8]) throws(EditError) -> [UInt8] {
        var table: StringsTable
        do { table = try StringsFile.parse(bytes) } catch { throw .unreadable(error) }
        let entries = table.entries
        guard entries.contains(where: { $0.key == key }) else { throw .noSuchKey(key) }
        return Array(LocalizationFileWriter.stringsText(StringsTable(entries.filter { $0.key != key })).utf8)
    }
}
