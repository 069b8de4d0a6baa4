import StringsFormat

extension DumpCommand {
    /// Prints a catalog's languages (or `language` only) as Xcode's build compiles them.
    func dumpCatalog<Output, ErrorOutput>(_ bytes: [UInt8], name: String, io: inout CommandIO<Output, ErrorOutput>)
        -> Int32
    {
        let catalog: StringCatalog
        do throws(ParseError) {
            catalog = try StringCatalog.parse(bytes)
        } catch {
            io.stderr.write(error.formatted(file: name) + "\n")
            return ExitCode.failure
        }
        if let language {
            guard catalog.languages.contains(language) else {
                io.printError("\(name) has no language '\(language)' (it has "
                    + catalog.languages.joined(separator: ", ") + ")")
                return ExitCode.failure
            }
            io.stdout.write(Self.json(catalog, language: language, includesComments: includesComments, level: 0) + "\n")
        } else {
            let members = catalog.languages.map { language in
                (key: language, value: Self.json(catalog, language: language, includesComments: includesComments,
                                                 level: 1))
            }
            io.stdout.write(JSONWriter.prettyObject(members) + "\n")
        }
        return ExitCode.success
    }

    /// One compiled language as a JSON object, keys in catalog order.
    static func json(_ catalog: StringCatalog, language: String, includesComments: Bool, level: Int) -> String {
        let compiled = catalog.compiled(language: language)
        var members: [(key: String, value: String)] = []
        for entry in catalog.entries {
            let value: String
            if let rule = compiled.rules[entry.key] {
                value = json(rule.propertyList, level: level + (includesComments ? 2 : 1))
            } else if let text = compiled.strings[entry.key] {
                value = JSONWriter.quoted(text)
            } else {
                continue
            }
            guard includesComments else {
                members.append((entry.key, value))
                continue
            }
            var described = [(key: "value", value: value)]
            if let comment = entry.comment { described.append(("comment", JSONWriter.quoted(comment))) }
            members.append((entry.key, JSONWriter.prettyObject(described, level: level + 1)))
        }
        return JSONWriter.prettyObject(members, level: level)
    }

    /// A `.stringsdict` entry's dictionary (strings and dictionaries only) as JSON, keys sorted.
    static func json(_ value: PropertyListValue, level: Int) -> String {
        guard case .dictionary(let members) = value else { return JSONWriter.quoted(value.stringValue ?? "") }
        let sorted = members.keys.sorted().map { key in (key, json(members[key]!, level: level + 1)) }
        return JSONWriter.prettyObject(sorted, level: level)
    }
}
