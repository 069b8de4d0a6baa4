/// An XML property list opened for editing: its bytes, its value, and where each member is.
struct EditablePropertyList {
    private(set) var bytes: [UInt8]
    private let value: PropertyListValue
    private let spans: [XMLMemberSpan]
    /// The top dictionary.
    let root: XMLMemberSpan

    /// Reads `bytes` with the package's XML property list reader.
    ///
    /// - Throws: `.unreadable` with the reader's error; `.cannotEdit` for a binary property list or a top object
    ///   that is not a dictionary.
    init(_ bytes: [UInt8]) throws(EditError) {
        let isBinary = bytes.withUnsafeBytes { BinaryPropertyList.isBinaryPropertyList($0) }
        guard !isBinary else {
            throw EditError(.cannotEdit, "the file is a compiled binary property list; edit its source")
        }
        do {
            (value, spans) = try XMLPropertyList.outline(bytes)
        } catch {
            throw .unreadable(error)
        }
        guard case .dictionary = value, let root = spans.last(where: { $0.path == [] }) else {
            throw EditError(.cannotEdit, "the property list's top object is not a dictionary")
        }
        self.bytes = bytes
        self.root = root
    }

    /// The value at `path` of dictionary keys.
    func value(at path: [String]) -> PropertyListValue? {
        var current = value
        for key in path {
            guard case .dictionary(let members) = current, let next = members[key] else { return nil }
            current = next
        }
        return current
    }

    /// The members of the dictionary at `parent`, in file order (a repeated key appears each time).
    func children(of parent: XMLMemberSpan) -> [(name: String, span: XMLMemberSpan)] {
        guard let path = parent.path else { return [] }
        return spans.compactMap { span in
            guard let childPath = span.path, childPath.count == path.count + 1, childPath.starts(with: path),
                  parent.value.contains(span.value.lowerBound) else { return nil }
            return (childPath[path.count], span)
        }.sorted { $0.1.keyStart < $1.1.keyStart }
    }

    /// The member `name` of the dictionary at `parent` (its last occurrence, the one read).
    func member(_ name: String, in parent: XMLMemberSpan) -> XMLMemberSpan? {
        children(of: parent).last { $0.name == name }?.span
    }

    mutating func replace(_ range: Range<Int>, with text: String) {
        bytes.replaceSubrange(range, with: Array(text.utf8))
    }

    // MARK: - Inserting

    /// Inserts `<key>name</key><string>text</string>` into the dictionary at `parent`.
    mutating func insert(_ name: String, string text: String, into parent: XMLMemberSpan) throws(EditError) {
        try insert(name, members: nil, grandchildren: [(name, text)], into: parent)
    }

    /// Inserts a member `name` into the dictionary at `parent`: a string when `members` is `nil` (the text is
    /// `grandchildren`'s only value), else a dictionary of `members`, where a `nil` text is a dictionary of
    /// `grandchildren`.
    mutating func insert(
        _ name: String, members: [(String, String?)]?, grandchildren: [(String, String?)], into parent: XMLMemberSpan
    ) throws(EditError) {
        guard let closing = parent.closingTag else {
            throw EditError(.cannotEdit, "an empty <dict/> cannot take a member in place")
        }
        let newline = lineEnding
        let siblings = children(of: parent)
        let parentIndent = indentation(ofLineAt: parent.keyStart)
        let memberIndent = siblings.first.map { indentation(ofLineAt: $0.span.keyStart) } ?? parentIndent + "\t"
        let unit = memberIndent.hasPrefix(parentIndent) && memberIndent.count > parentIndent.count
            ? String(memberIndent.dropFirst(parentIndent.count)) : "\t"
        func element(_ key: String, _ text: String?, members: [(String, String?)], indent: String) -> String {
            var xml = "\(indent)<key>\(LocalizationFileWriter.escapedXML(key))</key>\(newline)"
            guard let text else {
                xml += "\(indent)<dict>\(newline)"
                for (childKey, childText) in members {
                    xml += element(childKey, childText, members: grandchildren, indent: indent + unit)
                }
                return xml + "\(indent)</dict>\(newline)"
            }
            return xml + "\(indent)<string>\(LocalizationFileWriter.escapedXML(text))</string>\(newline)"
        }
        let xml = members.map { element(name, nil, members: $0, indent: memberIndent) }
            ?? element(name, grandchildren.first?.1, members: [], indent: memberIndent)
        // Sorted siblings (as PropertyListSerialization writes them) keep their order; others get it at the end.
        let names = siblings.map(\.name)
        let isSorted = zip(names, names.dropFirst()).allSatisfy { !$1.utf8.lexicographicallyPrecedes($0.utf8) }
        let next = isSorted ? siblings.first { name.utf8.lexicographicallyPrecedes($0.name.utf8) } : nil
        let anchor = next?.span.keyStart ?? closing
        let lineStart = startOfLine(at: anchor)
        if isBlank(lineStart..<anchor) {
            bytes.insert(contentsOf: Array(xml.utf8), at: lineStart)
        } else {
            bytes.insert(contentsOf: Array((newline + xml + parentIndent).utf8), at: anchor)
        }
    }

    // MARK: - Removing

    /// Removes a member's key and value, and their lines when nothing else is on them.
    mutating func removeMember(_ span: XMLMemberSpan) {
        let lineStart = startOfLine(at: span.keyStart)
        var end = span.value.upperBound
        while end < bytes.count, bytes[end] == 0x20 || bytes[end] == 0x09 { end += 1 }
        guard isBlank(lineStart..<span.keyStart), end == bytes.count || bytes[end] == 0x0A || bytes[end] == 0x0D else {
            bytes.removeSubrange(span.keyStart..<span.value.upperBound)
            return
        }
        if end < bytes.count { end += bytes[end] == 0x0D && end + 1 < bytes.count && bytes[end + 1] == 0x0A ? 2 : 1 }
        bytes.removeSubrange(lineStart..<end)
    }

    // MARK: - Lines

    private var lineEnding: String {
        guard let index = bytes.firstIndex(where: { $0 == 0x0A || $0 == 0x0D }) else { return "\n" }
        if bytes[index] == 0x0A { return "\n" }
        return index + 1 < bytes.count && bytes[index + 1] == 0x0A ? "\r\n" : "\r"
    }

    private func startOfLine(at index: Int) -> Int {
        var start = index
        while start > 0, bytes[start - 1] != 0x0A, bytes[start - 1] != 0x0D { start -= 1 }
        return start
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        bytes[range].allSatisfy { $0 == 0x20 || $0 == 0x09 }
    }

    /// The spaces and tabs that start the line holding `index`, when only they precede it.
    private func indentation(ofLineAt index: Int) -> String {
        let start = startOfLine(at: index)
        return isBlank(start..<index) ? String(decoding: bytes[start..<index], as: UTF8.self) : ""
    }
}
