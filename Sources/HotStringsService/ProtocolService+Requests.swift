import BundleChanges
import HotStringsProtocol
import HotStringsRelease
import StringsFormat
import StringsStore

extension ProtocolService {
    /// Answers `request` of `client`; events it causes (a `language` event) go out before the answer, a
    /// subscription's snapshot after it.
    func answer(_ request: Request, id requestID: RequestID?, from client: ClientID) async {
        if case .table(let language, let table) = request {
            return await answerTable(language, table, requestID, client)
        }
        let result: Result<[(String, JSONValue)], ProtocolError>
        do {
            result = .success(try await perform(request, for: client))
        } catch {
            result = .failure(error)
        }
        respond(to: client, requestID, result)
        if case .subscribe(let options) = request, case .success = result { await subscribe(client, options) }
    }

    /// Answers a `table` request from the kept answers when the store has not changed since one was rendered for
    /// the same language and table: a large table's answer costs milliseconds of the core's time to build and
    /// encode, and every other client's request waits behind it (issue 21's `get` under pipelined `table`s).
    private func answerTable(_ language: String, _ table: String, _ requestID: RequestID?, _ client: ClientID) async {
        let key = TableAnswers<Rendering.Answer>.Key(language: language, table: table, seq: await store.seq)
        if let kept = tableAnswers.answer(for: key) {
            outputs.append(.response(client, Rendering.answer(kept, to: requestID)))
            return
        }
        let result: Result<[(String, JSONValue)], ProtocolError>
        do {
            result = .success(try await perform(.table(language: language, table: table), for: client))
        } catch {
            result = .failure(error)
        }
        let rendered = Rendering.render(ServiceAnswer(requestID: nil, result: result))
        if case .success = result { tableAnswers.keep(rendered, for: key, size: Rendering.size(ofAnswer: rendered)) }
        outputs.append(.response(client, Rendering.answer(rendered, to: requestID)))
    }

    /// The members of the answer to `request`, after `id` and `ok`.
    private func perform(_ request: Request, for client: ClientID) async throws(ProtocolError)
        -> [(String, JSONValue)] {
        switch request {
        case .hello:
            return [
                ("server", .string(HotStringsVersion.serverName)), ("protocol", .integer(1)),
                ("epoch", .integer(store.epoch)), ("seq", .integer(await store.seq)),
                ("root", .string(environment.root)), ("developmentLanguage", .string(store.developmentLanguage)),
            ]
        case .languages:
            let pseudo = store.pseudoLanguages
            let summaries = await store.languages().map { summary -> JSONValue in
                var members: [(String, JSONValue)] = [
                    ("language", .string(summary.language)),
                    ("tables", .object(summary.tables.sorted { $0.key < $1.key }.map { ($0.key, .integer($0.value)) })),
                ]
                if pseudo.contains(summary.language) { members.append(("pseudo", .bool(true))) }
                return .object(members)
            }
            return [
                ("languages", .array(summaries)),
                ("selected", .string(orNull: await store.selectedLanguage?.identifier)),
                ("developmentLanguage", .string(store.developmentLanguage)),
            ]
        case .get(let key, let table, let languages):
            let lookup = await store.lookup(key, table: table, preferences: languages)
            var fields: [(String, JSONValue)] = [("value", .string(lookup.value)),
                                                 ("language", .string(orNull: lookup.language)),
                                                 ("found", .bool(lookup.found))]
            if let rule = lookup.rule { fields.append(("rule", JSONValue(propertyList: rule.propertyList))) }
            return fields
        case .table(let language, let table):
            guard let tag = LanguageTag(language),
                  let found = await store.content(TableID(language: tag, table: table))
            else { throw .notFound("no table '\(table)' in language '\(language)'") }
            var fields: [(String, JSONValue)] = [
                ("entries", .object(found.entries.map { ($0.key, .string($0.value.plainText)) })),
                ("language", .string(tag.identifier)), ("seq", .integer(await store.seq)),
            ]
            if !found.rules.isEmpty { fields.append(("rules", .object(found.rulePayload(for: found.rules.keys)))) }
            return fields
        case .subscribe:
            // The subscription starts once this answer is queued (see `answer`), so its snapshot follows it.
            return [("epoch", .integer(store.epoch)), ("seq", .integer(await store.seq))]
        case .unsubscribe:
            unsubscribe(client)
            return []
        case .selectLanguage(let language):
            return try await select(language)
        case .status:
            return await status()
        case .set(let write):
            return try edit(BundleEditor.Edit(write))
        case .remove(let key, let language, let table):
            return try edit(BundleEditor.Edit(key: key, language: language, table: table, change: .removal))
        case .check(let write):
            return try check(BundleEditor.Edit(write))
        case .reportMissing(let report):
            missingKeys.merge(report)
            return []
        case .missing(let language, let table):
            return missingKeys.answer(language: language, table: table)
        case .lint:
            return lint()
        case .states(let table):
            guard let editor = environment.bundleEditor else { return [("states", .object([]))] }
            return [("states", editor.catalogStates(table: table).json)]
        }
    }

    /// Selects the app language: saved first, then applied and broadcast; a failed save changes nothing and
    /// is an `internal` error naming the reason.
    private func select(_ language: String?) async throws(ProtocolError) -> [(String, JSONValue)] {
        let events: [StoreEvent]
        do {
            if let save = environment.saveSelection {
                events = try await store.selectLanguage(language, persistingWith: save)
            } else {
                events = try await store.selectLanguage(language)
            }
        } catch {
            switch error {
            case .unsupportedLanguage(let requested, let available):
                throw .unsupportedLanguage(requested, available: available)
            case .notSaved:
                throw .internal(error.description)
            }
        }
        await broadcast(events)
        return [("selected", .string(orNull: await store.selectedLanguage?.identifier))]
    }

    private func status() async -> [(String, JSONValue)] {
        let status = environment.watcherStatus()
        let tables = await store.languages().reduce(0) { $0 + $1.tables.count }
        let uptime = (ContinuousClock.now - startedAt).components
        return [
            ("root", .string(status.root)), ("rootPresent", .bool(status.isRootPresent)),
            ("watchedDirectories", .integer(status.watchedDirectories)), ("files", .integer(status.files)),
            ("tables", .integer(tables)), ("subscribers", .integer(subscriptions.count)),
            ("connections", .integer(environment.connectionCount())), ("lastErrors", recentProblems.json),
            ("uptime", .double(Double(uptime.seconds) + Double(uptime.attoseconds) / 1e18)),
            ("epoch", .integer(store.epoch)), ("seq", .integer(await store.seq)),
            ("release", .string(orNull: ReleaseStore(bundle: environment.root).currentID())),
            ("releaseInfo", Self.releaseInfo(of: ReleaseStore(bundle: environment.root).current())),
            ("pull", environment.pullStatus?().json ?? .null),
            ("missing", missingKeys.statusJSON),
            ("web", environment.webURL.map { .object([("url", .string($0))]) } ?? .null),
        ]
    }

    /// `status`'s `releaseInfo`: the installed release's sequence, signer key id and expiry (each null when the
    /// release has none), or null when the bundle has no release.
    private static func releaseInfo(of release: InstalledRelease?) -> JSONValue {
        guard let release else { return .null }
        return .object([
            ("sequence", release.manifest.sequence.map { .integer(Int64($0)) } ?? .null),
            ("signer", .string(orNull: release.signer)),
            ("expires", .string(orNull: release.manifest.expires)),
        ])
    }
}
