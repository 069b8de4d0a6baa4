import HotStringsProtocol
import StringsFormat

/// Every key's value for the current language, already resolved through the fallback chain: what readers see,
/// once `MirrorCore` has frozen it into a `MirrorSnapshot` (readers never read this value itself, nor take the
/// engine's lock it lives under; a lookup is one hash probe in the published snapshot, see `SnapshotPublisher`).
struct MirrorView: Sendable {
    /// Table name → key → the value in the first language of the chain that has the key (a rule's plain text).
    var strings: [String: [String: String]] = [:]
    /// Table name → key → its format rule, for the keys whose first language in the chain has one.
    var rules: [String: [String: ResolvedRule]] = [:]
    /// The current language.
    var language: String
    /// The app language selected through the daemon.
    var selectedLanguage: String?
    /// The bundle's development language.
    var developmentLanguage: String
    /// The languages the bundle has (without `Base`), sorted.
    var supportedLanguages: [String] = []
    /// What `LanguageMatcher` finds first for `language` in the bundle, or nil: a key another language answers
    /// is a fallback (`MirrorEngine.fallbackOrigins(table:)`).
    var bestMatch: String?
    /// Whether a connection is up.
    var isConnected = false
    /// Whether the mirror holds a snapshot from the current connection's source (and is not waiting for one).
    var isSynchronized = false
}

/// The mirror's writer side: tables, stream position and language inputs, turning transport events into a
/// new view, the change to report and the commands to send. Not thread-safe: `LiveStrings` keeps it in a
/// `Mutex`, and tests drive it directly.
struct MirrorEngine {
    /// What one input led to.
    struct Outcome {
        /// The change to report to reload hooks, when some looked-up value changed.
        var change: LocalizationChange?
        /// Commands for the transport, in order.
        var commands: [TransportCommand] = []
    }

    /// Languages the program shows (canonical), or nil for every language of the bundle.
    let configuredLanguages: [String]?
    /// Table names the program uses, or nil for all.
    let configuredTables: [String]?
    /// Preferences from the environment (canonical), most preferred first.
    let environmentLanguages: [String]

    private(set) var overrideLanguage: String?
    private(set) var selectedLanguage: String?
    private(set) var developmentLanguage: String
    private(set) var supportedLanguages: [String] = []
    private(set) var tables: [LocalizedTable: [String: String]] = [:]
    /// The format rules of each table that has any (their keys' plain texts are in `tables`).
    private(set) var rules: [LocalizedTable: [String: StringsdictEntry]] = [:]
    /// Where the tables stand in the source's event stream; nil before the first snapshot.
    private(set) var position: StreamPosition?
    /// Connection, handshake and whether a snapshot is awaited.
    private(set) var state = ConnectionState.offline
    /// The tables may have missed events: the next subscription asks for a snapshot whatever `since` says.
    private var needsFreshSnapshot = false
    /// The language filter last subscribed with (nil: all).
    private var subscribedLanguages: Set<String>?
    /// The tables when the current handshake began, to report which ones it changed.
    private var tablesBeforeHandshake: [LocalizedTable: [String: String]] = [:]
    private(set) var chain: [String] = []
    /// Matches requests to the languages the mirror knows of; kept while that set stays the same.
    private var matcher = LanguageMatcher(languages: [])
    private(set) var view: MirrorView
    /// The view's tables that may have changed since `takeChangedTables()`; nil: any of them.
    private var changedViewTables: Set<String>? = nil

    /// Creates an empty engine; `languages` and `tables` restrict the subscription, `environment` is the
    /// process environment whose gettext variables give the default language.
    init(languages: [String]?, tables: [String]?, environment: [String: String], developmentLanguage: String = "en") {
        configuredLanguages = languages.map { $0.compactMap { LanguageTags.canonical($0) } }
        configuredTables = tables
        environmentLanguages = LanguageTags.environmentPreferences(environment)
        self.developmentLanguage = LanguageTags.canonical(developmentLanguage) ?? developmentLanguage
        view = MirrorView(language: self.developmentLanguage, developmentLanguage: self.developmentLanguage)
        chain = computeChain()
        view.language = computeLanguage()
    }

    // MARK: - Inputs

    /// Applies one transport event.
    mutating func handle(_ event: TransportEvent) -> Outcome {
        let outcome = apply(event)
        updateStatus()
        return outcome
    }

    private mutating func updateStatus() {
        view.isConnected = state.isConnected
        // `.live` is reached only with a snapshot applied (a position).
        view.isSynchronized = state == .live
    }

    private mutating func apply(_ event: TransportEvent) -> Outcome {
        switch event {
        case .connected:
            state = .handshaking(isAwaitingSnapshot: false)
            tablesBeforeHandshake = tables
            let since = needsFreshSnapshot ? nil : position
            return Outcome(commands: [.subscribe(subscription(since: since)), .refreshServerInfo])
        case .serverInfo(let info):
            developmentLanguage = LanguageTags.canonical(info.developmentLanguage) ?? info.developmentLanguage
            selectedLanguage = info.selectedLanguage.map { LanguageTags.canonical($0) ?? $0 }
            supportedLanguages = Set(info.languages.map { LanguageTags.canonical($0) ?? $0 })
                .subtracting([LanguageTags.base]).sorted()
            return state.isHandshaking ? finishHandshake() : refresh(cause: .language, tables: [], touched: nil)
        case .disconnected:
            let wasHandshaking = state.isHandshaking
            state = .offline
            return wasHandshaking ? finishHandshake() : Outcome()
        case .event(let epoch, let seq, let payload):
            return handle(payload, epoch: epoch, seq: seq)
        }
    }

    /// Sets or clears the local-only language override.
    mutating func setOverride(_ language: String?) -> Outcome {
        overrideLanguage = language.map { LanguageTags.canonical($0) ?? $0 }
        let outcome = state.isHandshaking ? Outcome() : refresh(cause: .language, tables: [], touched: nil)
        updateStatus()
        return outcome
    }

    private mutating func handle(_ event: ServerEvent, epoch: UInt64, seq: UInt64) -> Outcome {
        switch event {
        case .snapshot(let payloads):
            var replaced: [LocalizedTable: [String: String]] = [:]
            var replacedRules: [LocalizedTable: [String: StringsdictEntry]] = [:]
            for payload in payloads {
                let id = LocalizedTable(language: payload.language.identifier,
                                        table: payload.table)
                replaced[id] = Dictionary(payload.entries, uniquingKeysWith: { _, last in last })
                if !payload.rules.isEmpty { replacedRules[id] = Self.rules(from: payload.rules) }
            }
            rules = replacedRules
            let previous = tables
            tables = replaced
            position = StreamPosition(epoch: epoch, seq: seq)
            state = state.withSnapshot
            needsFreshSnapshot = false
            if state.isHandshaking { return Outcome() }
            return refresh(cause: .snapshot, tables: changedTables(from: previous), touched: nil)
        case .resync:
            // A snapshot follows on this connection; until then the tables are stale.
            state = state.expectingSnapshot
            needsFreshSnapshot = true
            return Outcome()
        default:
            break
        }
        var outcome = Outcome()
        var isLanguageChanged = false
        if case .language(let language, _) = event {
            // Snapshots do not carry the selection, so a language event counts wherever it comes: the stream's
            // order is the selection's history.
            selectedLanguage = language?.identifier
            isLanguageChanged = true
        }
        var isApplicable = false
        if let current = position, !state.isAwaitingSnapshot {
            if epoch != current.epoch || seq > current.seq + 1 {
                // Missed events: ask for a snapshot (since an old position, so one is always sent).
                state = state.expectingSnapshot
                needsFreshSnapshot = true
                outcome.commands.append(.subscribe(subscription(since: current)))
            } else if seq == current.seq + 1 {
                position = StreamPosition(epoch: epoch, seq: seq)
                isApplicable = true
            }
        }
        var changed: Set<LocalizedTable> = []
        var touched: [String: Set<String>] = [:]
        if isApplicable, case .reload(let changes) = event {
            if changes.contains(where: { $0.kind != .updated }) { outcome.commands.append(.refreshServerInfo) }
            apply(changes, changed: &changed, touched: &touched)
        }
        guard !state.isHandshaking, isLanguageChanged || !touched.isEmpty else { return outcome }
        var refreshed = refresh(cause: isLanguageChanged ? .language : .reload, tables: changed,
                                touched: isLanguageChanged ? nil : touched)
        refreshed.commands.insert(contentsOf: outcome.commands, at: 0)
        return refreshed
    }

    /// Applies a reload's changes to the tables; collects the chain's tables and keys they touched.
    ///
    /// Each table is taken out of `tables` while it is changed, so that its storage is copied at most once (when
    /// the view still shares it) and each key is hashed once per step.
    private mutating func apply(_ changes: [ChangePayload], changed: inout Set<LocalizedTable>,
                                touched: inout [String: Set<String>]) {
        let inChain = Set(chain)
        for change in changes {
            let id = LocalizedTable(language: change.language.identifier,
                                    table: change.table)
            var removedEntries: [String: String] = [:]
            if change.kind == .deleted {
                removedEntries = tables.removeValue(forKey: id) ?? [:]
                rules[id] = nil
            } else {
                var entries = tables.removeValue(forKey: id) ?? [:]
                for (key, value) in change.added { entries[key] = value }
                for (key, value) in change.changed { entries[key] = value }
                for key in change.removed { entries[key] = nil }
                tables[id] = entries
                applyRules(of: change, to: id)
            }
            guard inChain.contains(id.language) else { continue }
            let count = change.added.count + change.changed.count + change.removed.count + removedEntries.count
            guard count > 0 else { continue }
            // Tables of several languages share a name: their keys go into one set per name.
            var keys = touched.removeValue(forKey: id.table) ?? []
            keys.reserveCapacity(keys.count + count)
            for (key, _) in change.added { keys.insert(key) }
            for (key, _) in change.changed { keys.insert(key) }
            for key in change.removed { keys.insert(key) }
            for key in removedEntries.keys { keys.insert(key) }
            changed.insert(id)
            touched[id.table] = keys
        }
    }

    /// Keeps the rules of `id` in step with a change: an added or changed key has the change's rule, or none.
    private mutating func applyRules(of change: ChangePayload, to id: LocalizedTable) {
        guard !change.rules.isEmpty || rules[id] != nil else { return }
        var entries = rules.removeValue(forKey: id) ?? [:]
        let changedRules = Self.rules(from: change.rules)
        for (key, _) in change.added { entries[key] = changedRules[key] }
        for (key, _) in change.changed { entries[key] = changedRules[key] }
        for key in change.removed { entries[key] = nil }
        if !entries.isEmpty { rules[id] = entries }
    }

    private mutating func finishHandshake() -> Outcome {
        state = state.afterHandshake(hasTables: position != nil)
        let changed = changedTables(from: tablesBeforeHandshake)
        tablesBeforeHandshake = [:]
        return refresh(cause: changed.isEmpty ? .language : .snapshot, tables: changed, touched: nil)
    }

    /// The tables of the chain (the one in force and the one about to be) that differ between `previous`
    /// and now.
    private func changedTables(from previous: [LocalizedTable: [String: String]]) -> Set<LocalizedTable> {
        let inChain = Set(chain).union(computeChain())
        var changed: Set<LocalizedTable> = []
        for id in Set(previous.keys).union(tables.keys) where inChain.contains(id.language) {
            if previous[id] != tables[id] { changed.insert(id) }
        }
        return changed
    }

    /// The names of the view's tables that may differ from what they were at the previous call (nil: any may),
    /// and starts collecting anew: a publisher rebuilds only those.
    mutating func takeChangedTables() -> Set<String>? {
        defer { changedViewTables = [] }
        return changedViewTables
    }

    // MARK: - Resolution

    /// Recomputes the chain and the view after an input; `touched` limits the work to those keys when only
    /// table contents changed (nil: rebuild every table).
    private mutating func refresh(cause: LocalizationChange.Cause, tables changed: Set<LocalizedTable>,
                                  touched: [String: Set<String>]?) -> Outcome {
        var outcome = Outcome()
        matcher = currentMatcher()
        let newChain = computeChain()
        var strings = view.strings
        // The engine is then the only owner of the tables' storage, so that they change in place.
        view.strings = [:]
        var keys: [String: Set<String>] = [:]
        if let touched, newChain == chain {
            changedViewTables?.formUnion(touched.keys)
            for (table, names) in touched {
                let (entries, changedKeys) = Self.resolve(names, table: table, chain: chain, in: tables,
                                                          into: strings.removeValue(forKey: table) ?? [:])
                if !entries.isEmpty { strings[table] = entries }
                if !changedKeys.isEmpty { keys[table] = changedKeys }
            }
        } else {
            chain = newChain
            let previous = strings
            strings = Self.build(chain: chain, from: tables)
            keys = Self.differences(previous, strings)
            changedViewTables = nil
        }
        if let required = requiredLanguages(), let subscribed = subscribedLanguages, !required.isSubset(of: subscribed),
           state.isConnected {
            // The new chain needs tables the subscription leaves out: subscribe again, with a fresh snapshot.
            state = state.expectingSnapshot
            needsFreshSnapshot = true
            outcome.commands.append(.subscribe(subscription(since: nil)))
        }
        let resolvedRules = Self.resolveRules(chain: chain, tables: tables, rules: rules)
        if !resolvedRules.isEmpty || !view.rules.isEmpty {
            for (table, names) in Self.ruleDifferences(view.rules, resolvedRules) {
                keys[table, default: []].formUnion(names)
            }
        }
        view.rules = resolvedRules
        let language = computeLanguage()
        view.strings = strings
        view.language = language
        view.bestMatch = LanguageTag(language).flatMap { matcher.matches(for: $0).first?.language.identifier }
        view.selectedLanguage = selectedLanguage
        view.developmentLanguage = developmentLanguage
        view.supportedLanguages = supportedLanguages
        if !keys.isEmpty {
            outcome.change = LocalizationChange(cause: cause, language: language, tables: changed, keys: keys)
        }
        return outcome
    }

    /// The subscription for the current needs, resuming at `since` when given.
    private mutating func subscription(since: StreamPosition?) -> Subscription {
        let languages = requiredLanguages()
        subscribedLanguages = languages
        return Subscription(languages: languages.map { $0.sorted() }, tables: configuredTables, snapshot: true,
                            since: since)
    }

    /// The languages whose tables the mirror needs (the configured ones with their more general tags and the
    /// bundle languages that answer them, and the whole current chain), or nil when no languages were configured.
    private func requiredLanguages() -> Set<String>? {
        guard let configuredLanguages else { return nil }
        let matcher = currentMatcher()
        var required = Set(configuredLanguages.flatMap(LanguageTags.fallbacks(of:)))
        for language in configuredLanguages.compactMap({ LanguageTag($0) }) {
            required.formUnion(matcher.matches(for: language).map(\.language.identifier))
        }
        return required.union(computeChain())
    }

    /// The preferences in force: the override, else the selected language, else the environment's list.
    private var preferences: [String] {
        if let overrideLanguage { return [overrideLanguage] }
        if let selectedLanguage { return [selectedLanguage] }
        return environmentLanguages
    }

    /// What `LanguageMatcher` finds in the bundle for each preference, then for the selected language, then for
    /// the development language, each language once, then `Base`.
    ///
    /// Before the mirror knows any language of the bundle, the chain is a guess for the first subscription: each
    /// input and its more general tags, so that a client usually needs no second snapshot once it knows.
    func computeChain() -> [String] {
        let matcher = currentMatcher()
        if matcher.languages.isEmpty {
            let heads = preferences + (selectedLanguage.map { [$0] } ?? []) + [developmentLanguage]
            var seen: Set<String> = []
            let guess = heads.flatMap(LanguageTags.fallbacks(of:)) + [LanguageTags.base]
            return guess.filter { seen.insert($0).inserted }
        }
        return matcher.chain(preferences: preferences.compactMap { LanguageTag($0) },
                             selected: selectedLanguage.flatMap { LanguageTag($0) },
                             development: LanguageTag(developmentLanguage) ?? .base).map(\.identifier)
    }

    /// The override, else the selected language, else the first environment language the bundle has a language
    /// for (`LanguageMatcher`), else the development language.
    func computeLanguage() -> String {
        if let overrideLanguage { return overrideLanguage }
        if let selectedLanguage { return selectedLanguage }
        let matcher = currentMatcher()
        let supported = environmentLanguages.first { language in
            LanguageTag(language).map(matcher.supports) ?? false
        }
        return supported ?? developmentLanguage
    }

    /// The matcher for the languages the mirror knows of now (the daemon's list and the tables it holds): the
    /// kept one while that set is unchanged.
    func currentMatcher() -> LanguageMatcher {
        var available = Set(supportedLanguages.compactMap { LanguageTag($0) })
        for id in tables.keys { if let tag = LanguageTag(id.language) { available.insert(tag) } }
        available.remove(.base)
        return available == matcher.languages ? matcher : LanguageMatcher(languages: available)
    }
}
