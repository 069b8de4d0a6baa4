/// One thing wrong with a value's format specifiers: an error where the value reads an argument the development
/// language does not give, or reads one as another class (a `%d` translated as `%@` crashes an app on Apple
/// platforms), a warning where it leaves an argument out or mixes positioned and plain specifiers.
package struct SpecifierProblem: Sendable, Hashable {
    package enum Severity: String, Sendable, Hashable {
        case error, warning
    }

    package var severity: Severity
    /// The text the problem is in; a place with only a device (or none) for the whole value.
    package var place: TextPlace
    /// What is wrong, naming the specifiers (`%1$d takes argument 1 as an integer, where en's %1$@ takes an
    /// object`).
    package var reason: String

    package init(_ severity: Severity, _ place: TextPlace, _ reason: String) {
        self.severity = severity
        self.place = place
        self.reason = reason
    }

    /// What `lint` reports and `set` answers: `'key', form 'one' of 'messages': reason`; with a `language` (a
    /// String Catalog holds them all), `'key', language 'de', …`.
    package func message(key: String, language: String? = nil) -> String {
        let parts = [language.map { "language '\(DisplayText.escaped($0))'" }, place.description]
            .compactMap { $0 }.filter { !$0.isEmpty }
        return (["'\(DisplayText.escaped(key))'"] + parts).joined(separator: ", ") + ": " + reason
    }
}

extension FormatSpecifiers {
    /// What is wrong with the format specifiers of `value` (a plain text is an entry without variables) against
    /// `development`, the same key's value in the development language `developmentLanguage`, as `lint`, `set`,
    /// `publish` and the page judge them; with no `development`, only what is wrong with `value` on its own.
    ///
    /// Each argument is judged by its number and class (`ArgumentClass`), as `arguments(of:at:)` reads them:
    /// - an argument the development language does not give is an error (a warning when its text has no
    ///   specifier at all, so that it is likely never formatted: `50 % de` reads `% d`), and so is one read as
    ///   another class;
    /// - an argument left out is a warning (a `one` form may leave its number out, as the variable takes it),
    ///   but an error when a later argument is used: on Apple platforms, each argument after the gap is then
    ///   read from the place of the one before it;
    /// - positioned and plain specifiers in one text (a value, a format, a device's text) are a warning: the
    ///   plain ones count from argument 1 on their own (`%2$@ %d` reads argument 1 twice);
    /// - in a format, a `%` that starts no specifier (`%I`, a final `%`) is a warning: it takes no argument, and
    ///   the formatter refuses the value.
    ///
    /// Reordered positions (`%2$d … %1$@`), `%1$@` for `%@`, and `%%` are no problem. A value that varies by
    /// device is judged on each device either varies by, against the development language's text on that device
    /// (else its `other`, else its only one). `catalogKey`: a String Catalog's key, which Xcode writes as the
    /// format the code passes (`%lld files`): the arguments it takes are given too, where the development
    /// language's value leaves them out.
    package static func problems(of value: StringsdictEntry, against development: StringsdictEntry?,
                                 catalogKey: String? = nil, developmentLanguage: String) -> [SpecifierProblem]
    {
        let devices = Set(value.devices.keys).union(development?.devices.keys ?? [String: StringsdictEntry]().keys)
        let language = DisplayText.escaped(developmentLanguage)
        var problems: [SpecifierProblem] = []
        for device in devices.isEmpty ? [nil] : devices.sorted().map(Optional.some) {
            // A value without that device's text nor `other`'s is judged on the devices it has.
            guard value.shown(on: device) != nil else { continue }
            let place = TextPlace(device: device)
            let found = ArgumentWalk(value, at: place)
            let expected = development.flatMap { $0.shown(on: device) == nil ? nil : ArgumentWalk($0, at: place) }
            let key = catalogKey.map { ArgumentWalk(StringsdictEntry(format: $0, variables: [:]), at: place) }
            problems += mixedPositions(found.uses)
            if (expected ?? found).isFormat || key?.isFormat == true {
                problems += found.unknown.map { specifier, place in
                    SpecifierProblem(.warning, place, "'\(specifier)' is no format specifier: it takes no argument, "
                        + "and the value cannot be formatted (write %% for a percent sign)")
                }
            }
            guard let expected else { continue }
            var reference = Reference(expected.uses, by: "\(language)'s")
            if let key { reference.add(key.uses, by: "the key's") }
            problems += reference.judge(found.uses, language: language, place: place,
                                        isFormat: expected.isFormat || key?.isFormat == true)
        }
        var seen: Set<SpecifierProblem> = []
        return problems.filter { seen.insert($0).inserted }
    }

    /// A warning for each text whose arguments are taken both by position and by place.
    private static func mixedPositions(_ uses: [ArgumentUse]) -> [SpecifierProblem] {
        var texts: [TextPlace: (positioned: ArgumentUse?, plain: ArgumentUse?)] = [:]
        var order: [TextPlace] = []
        // A variable's texts are not counted: their plain specifiers print the variable's own argument.
        for use in uses where use.place.variable == nil {
            if texts[use.place] == nil { order.append(use.place) }
            if use.isPositioned {
                texts[use.place, default: (nil, nil)].positioned = texts[use.place]?.positioned ?? use
            } else {
                texts[use.place, default: (nil, nil)].plain = texts[use.place]?.plain ?? use
            }
        }
        return order.compactMap { place in
            guard let positioned = texts[place]?.positioned, let plain = texts[place]?.plain else { return nil }
            return SpecifierProblem(.warning, place, "mixes positioned '\(positioned.specifier)' with plain "
                + "'\(plain.specifier)': the plain ones count from argument 1 on their own, so write a position on "
                + "each")
        }
    }
}

/// The arguments the development language gives, by number: the classes it reads each as, and the specifier to
/// name (the first that reads a class), with whose it is.
private struct Reference {
    struct Argument {
        var classes: Set<ArgumentClass> = []
        var use: ArgumentUse
        /// `en's`, or `the key's`.
        var owner: String
        /// Whether the development language's value takes it (not only the catalog's key).
        var isTaken: Bool
    }

    var arguments: [Int: Argument] = [:]

    init(_ uses: [ArgumentUse], by owner: String) {
        add(uses, by: owner, isTaken: true)
    }

    /// Adds the arguments of `uses` that are not known yet.
    mutating func add(_ uses: [ArgumentUse], by owner: String, isTaken: Bool = false) {
        let known = Set(arguments.keys)
        for use in uses where !known.contains(use.argument) {
            var argument = arguments[use.argument] ?? Argument(use: use, owner: owner, isTaken: isTaken)
            if let argumentClass = use.argumentClass {
                if argument.classes.isEmpty { argument.use = use }
                argument.classes.insert(argumentClass)
            }
            arguments[use.argument] = argument
        }
    }

    /// The problems of the arguments `found` takes; `place` is the value's, for those of the whole value.
    func judge(_ found: [ArgumentUse], language: String, place: TextPlace, isFormat: Bool) -> [SpecifierProblem] {
        var problems: [SpecifierProblem] = []
        for use in found {
            guard let reference = arguments[use.argument] else {
                let count = arguments.keys.max() ?? 0
                let takes = count == 0 ? "none" : count == 1 ? "1 argument" : "\(count) arguments"
                problems.append(SpecifierProblem(isFormat ? .error : .warning, use.place, "'\(use.specifier)' takes "
                    + "argument \(use.argument), which \(language) does not give (\(language) takes \(takes)"
                    + (isFormat ? ")" : "; write %% for a percent sign)")))
                continue
            }
            guard let argumentClass = use.argumentClass, let expected = reference.use.argumentClass,
                  !reference.classes.contains(argumentClass) else { continue }
            problems.append(SpecifierProblem(.error, use.place, "'\(use.specifier)' takes argument \(use.argument) "
                + "as \(argumentClass.phrase), where \(reference.owner) '\(reference.use.specifier)' takes "
                + expected.phrase))
        }
        let used = Set(found.map(\.argument))
        for (number, reference) in arguments.sorted(by: { $0.key < $1.key }) where !used.contains(number) {
            let left = "argument \(number) (\(reference.owner) '\(reference.use.specifier)') is left out"
            if let later = found.filter({ $0.argument > number }).min(by: { $0.argument < $1.argument }) {
                problems.append(SpecifierProblem(.error, place, left + " while '\(later.specifier)' takes argument "
                    + "\(later.argument): on Apple platforms each argument after a gap is read from the place "
                    + "of the one before it"))
            } else if reference.isTaken {
                problems.append(SpecifierProblem(.warning, place, left))
            }
        }
        return problems
    }
}
