import StringsFormat

extension LiveStrings {
    /// An immutable view of one generation of the strings: every lookup through it answers from the same
    /// version, however many reloads happen meanwhile, so a page or an e-mail rendered from one snapshot never
    /// mixes texts of two releases.
    ///
    /// Take one per request (`snapshot()` or `snapshot(acceptLanguage:)`) and drop it when the response is done:
    /// it keeps its generation's tables alive (tables that did not change are shared with the live mirror).
    /// Lookups and formatting are those of `LiveStrings`, plurals included.
    public struct Snapshot: Sendable {
        let mirror: MirrorSnapshot
        let formatter: StringsdictFormatter
        /// The client's recorder: a snapshot's misses count as the client's own (kept alive here for
        /// `missRecording`, which lookups pass without a retain).
        let missRecorder: MissRecorder?
        let missRecording: MissRecording?

        init(mirror: MirrorSnapshot, formatter: StringsdictFormatter, missRecorder: MissRecorder?) {
            self.mirror = mirror
            self.formatter = formatter
            self.missRecorder = missRecorder
            missRecording = MissRecording(missRecorder)
        }

        /// Which version of the client's mirror this is: it grows by one with each change the client applies
        /// (a reload, a language switch), so two snapshots with the same generation answer alike.
        public var generation: UInt64 { mirror.generation }

        /// The language lookups start from (for a request: the best match of its `Accept-Language`, else the
        /// development language), e.g. for a `Content-Language` header.
        public var language: String { mirror.status.language }

        /// The value of `key` in `table`, as `LiveStrings.localizedString(_:table:value:)` finds it.
        public func localizedString(_ key: String, table: String = LiveStrings.defaultTable,
                                    value: String? = nil) -> String {
            mirror.value(forKey: key, table: table, recordingMissesIn: missRecording)
                ?? MirrorSnapshot.notFound(key, value: value)
        }

        /// The value of `key` in `table` formatted with `arguments`, as
        /// `LiveStrings.localizedString(_:table:arguments:width:)` formats it (plural rules included).
        public func localizedString(_ key: String, table: String = LiveStrings.defaultTable,
                                    arguments: [any CVarArg], width: Int? = nil) -> String {
            mirror.formatted(key, table: table, arguments: arguments, width: width, formatter: formatter,
                             recordingMissesIn: missRecording)
        }
    }

    /// The strings as they are now, for the client's current language, frozen: costs about one lookup.
    public func snapshot() -> Snapshot {
        Snapshot(mirror: core.read { $0 }, formatter: formatter, missRecorder: missRecorder)
    }

    /// The strings as they are now, for a request with the HTTP `Accept-Language` header `header` (RFC 9110:
    /// weights order it, `q=0` excludes a language; see docs/LANGUAGES.md), frozen. An empty header gives the
    /// development language. The client's own language (override, selection, environment) does not apply.
    ///
    /// The first request with a header after a change resolves every table for it; later ones with the same
    /// header take that snapshot from a cache (about one lookup).
    /// - Throws: `LiveStringsError` with code `.invalidArgument` when the header is malformed (the message says
    ///   what is wrong); never for any bytes a client sends.
    public func snapshot(acceptLanguage header: String) throws(LiveStringsError) -> Snapshot {
        do {
            return Snapshot(mirror: try core.snapshot(forAcceptLanguage: header), formatter: formatter,
                            missRecorder: missRecorder)
        } catch {
            throw .invalidArgument("\(error)")
        }
    }
}

extension MirrorSnapshot {
    /// What a lookup of `key` that found nothing gives: `value` when it is given and not empty, else the key.
    static func notFound(_ key: String, value: String?) -> String {
        if let value, !value.isEmpty { return value }
        return key
    }

    /// The value of `key` in `table`, counted in `recorder` when it is missing or a fallback's.
    @inline(__always)
    func value(forKey key: String, table: String, recordingMissesIn recorder: MissRecording?) -> String? {
        guard let recorder else { return value(forKey: key, table: table) }
        guard let (found, origin) = entry(forKey: key, table: table) else {
            recorder.record(key, table: table, origin: 0, in: self)
            return nil
        }
        if origin != 0 { recorder.record(key, table: table, origin: origin, in: self) }
        return found
    }

    /// The value of `key` in `table` formatted with `arguments`: its rule's text for them, else its plain value
    /// (or the key) formatted, else that text as it is (see `LiveStrings.localizedString(_:table:arguments:width:)`).
    /// A rule from another language than the best match's counts in `recorder` as a fallback, as a plain value does.
    func formatted(_ key: String, table: String, arguments: [any CVarArg], width: Int?,
                   formatter: StringsdictFormatter, recordingMissesIn recorder: MissRecording?) -> String {
        let formatArguments = arguments.map(FormatArgument.init)
        if let rule = rule(forKey: key, table: table) {
            var formatter = formatter
            formatter.width = width
            if let text = try? formatter.format(rule.entry, pluralRules: rule.pluralRules, arguments: formatArguments) {
                if let recorder, let origin = entry(forKey: key, table: table)?.origin, origin != 0 {
                    recorder.record(key, table: table, origin: origin, in: self)
                }
                return text
            }
        }
        let text = value(forKey: key, table: table, recordingMissesIn: recorder) ?? key
        return (try? StringsdictFormatter.format(text, arguments: formatArguments)) ?? text
    }
}
