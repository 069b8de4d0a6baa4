import BundleChanges
import HotStringsProtocol
import HotStringsRelease
import StringsFormat
import StringsStore

extension ProtocolService {
    /// How a request is answered: now, or once its work off the core is done.
    enum Answering {
        /// The answer.
        case now(Answer)
        /// The work that may block, for a worker; its result finishes the request (`finishWork`).
        case offCore(OffCoreWork)
    }

    /// Answers `request` of `client`; events it causes (a `language` event) go out before the answer, a
    /// subscription's snapshot after it. A request whose work may block is handed off the core: its answer comes
    /// with the work's result, and the client's requests wait until then.
    func answer(_ request: Request, id requestID: RequestID?, from client: ClientID) async {
        if case .table(let language, let table) = request {
            return await answerTable(language, table, requestID, client)
        }
        let result: Result<Answer, ProtocolError>
        do {
            switch try await perform(request, for: client) {
            case .now(let answer): result = .success(answer)
            case .offCore(let work): return await handOff(work, of: client, requestID)
            }
        } catch {
            result = .failure(error)
        }
        respond(to: client, requestID, result)
        if case .subscribe(let options) = request, case .success = result { await subscribe(client, options) }
    }

    /// Hands `work` to a worker of the host; the client's requests wait in the core until its result is answered.
    private func handOff(_ work: OffCoreWork, of client: ClientID, _ requestID: RequestID?) async {
        guard let handOff = environment.handOff else {
            return await finishWork(of: client, requestID, work.run { false })
        }
        clientsAwaitingWork[client] = []
        outputs.append(.offCore(client))
        handOff(work, client, requestID)
    }

    /// Answers the request whose work was done off the core, then the requests the client sent meanwhile.
    func finishWork(of client: ClientID, _ requestID: RequestID?, _ result: WorkResult) async {
        switch result {
        case .answer(let answer):
            respond(to: client, requestID, answer)
        case .selectionSaved(let language, let saved):
            respond(to: client, requestID, await applySelection(language, saved: saved))
        }
        guard let held = clientsAwaitingWork.removeValue(forKey: client) else { return }
        for input in held { await process(input) }
    }

    /// Answers a `table` request from the kept answers when the store has not changed since one was rendered for
    /// the same language and table: a large table's answer costs milliseconds of the core's time to build and
    /// encode, and every other client's request waits behind it (issue 21's `get` under pipelined `table`s).
    private func answerTable(_ language: String, _ table: String, _ requestID: RequestID?, _ client: ClientID) async {
        let key = TableAnswers<Rendering.RenderedAnswer>.Key(language: language, table: table, seq: await store.seq)
        if let kept = tableAnswers.answer(for: key) {
            outputs.append(.response(client, Rendering.answer(kept, to: requestID)))
            return
        }
        let result: Result<Answer, ProtocolError>
        do {
            result = .success(.table(try await tableAnswer(language, table)))
        } catch {
            result = .failure(error)
        }
        let rendered = Rendering.render(ServiceAnswer(requestID: nil, result: result), log: environment.log)
        if case .success = result { tableAnswers.keep(rendered, for: key, size: Rendering.size(ofAnswer: rendered)) }
        outputs.append(.response(client, Rendering.answer(rendered, to: requestID)))
    }

    /// The answer to `request`, or the work off the core that answers it.
    private func perform(_ request: Request, for client: ClientID) async throws(ProtocolError) -> Answering {
        switch request {
        case .hello:
            let position = StreamPosition(epoch: store.epoch, seq: await store.seq)
            return .now(.hello(HelloAnswer(server: HotStringsVersion.serverName, position: position,
                                           root: environment.root, developmentLanguage: store.developmentLanguage)))
        case .languages:
            return .now(.languages(LanguagesAnswer(
                await store.languages(), pseudoLanguages: store.pseudoLanguages,
                selected: await store.selectedLanguage?.identifier, developmentLanguage: store.developmentLanguage)))
        case .get(let key, let table, let languages):
            return .now(.value(GetAnswer(await store.lookup(key, table: table, preferences: languages))))
        case .table(let language, let table):
            return .now(.table(try await tableAnswer(language, table)))
        case .subscribe:
            // The subscription starts once this answer is queued (see `answer`), so its snapshot follows it.
            return .now(.subscribed(StreamPosition(epoch: store.epoch, seq: await store.seq)))
        case .unsubscribe:
            unsubscribe(client)
            return .now(.unsubscribed)
        case .selectLanguage(let language):
            return try await select(language)
        case .status:
            return await status()
        case .set(let asked):
            return .offCore(try edit(asked))
        case .remove(let key, let language, let table):
            return .offCore(try edit(Edit(key: key, language: language, table: table, change: .removal)))
        case .check(let asked):
            return .offCore(try check(asked))
        case .reportMissing(let report):
            missingKeys.merge(report)
            return .now(.missingReported)
        case .missing(let language, let table):
            return .now(.missing(missingKeys.answer(language: language, table: table)))
        case .lint:
            return .offCore(lint())
        case .states(let table):
            guard let editor = environment.bundleEditor else { return .now(.states(StatesAnswer(states: [:]))) }
            // Every catalog of the table is read and parsed: off the core.
            return .offCore(OffCoreWork(.reads) { _ in
                .answer(.success(.states(StatesAnswer(states: editor.catalogStates(table: table)))))
            })
        }
    }

    /// The answer to `table`: the table as served, no fallback.
    private func tableAnswer(_ language: String, _ table: String) async throws(ProtocolError) -> TableAnswer {
        guard let tag = LanguageTag(language), let found = await store.content(TableID(language: tag, table: table))
        else { throw .notFound("no table '\(table)' in language '\(language)'") }
        return TableAnswer(found, language: tag, seq: await store.seq)
    }

    /// Selects the app language: saved first (off the core: a write and its `fsync`s), then applied and broadcast
    /// (`applySelection`); a failed save changes nothing and is an `internal` error naming the reason.
    private func select(_ language: String?) async throws(ProtocolError) -> Answering {
        let tag: LanguageTag?
        do {
            tag = try await store.checkedSelection(language)
        } catch {
            throw Self.protocolError(error)
        }
        guard tag != (await store.selectedLanguage), let save = environment.saveSelection else {
            return .now(.selection(try await selectionApplied(tag)))
        }
        return .offCore(OffCoreWork(.writes) { _ in
            do {
                try save(tag?.identifier)
                return .selectionSaved(tag, .success(()))
            } catch {
                return .selectionSaved(tag, .failure(.internal(StoreError.notSaved(reason: "\(error)").description)))
            }
        })
    }

    /// The answer to a `select-language` whose selection was saved (or not): applied and broadcast when it was.
    private func applySelection(_ language: LanguageTag?, saved: Result<Void, ProtocolError>) async
        -> Result<Answer, ProtocolError> {
        do {
            try saved.get()
            return .success(.selection(try await selectionApplied(language)))
        } catch {
            return .failure(error)
        }
    }

    /// Selects `language` in the store, broadcasts the `language` event, and returns the answer.
    private func selectionApplied(_ language: LanguageTag?) async throws(ProtocolError) -> SelectLanguageAnswer {
        let events: [StoreEvent]
        do {
            events = try await store.selectLanguage(language?.identifier)
        } catch {
            throw Self.protocolError(error)
        }
        await broadcast(events)
        return SelectLanguageAnswer(selected: await store.selectedLanguage?.identifier)
    }

    private static func protocolError(_ error: StoreError) -> ProtocolError {
        switch error {
        case .unsupportedLanguage(let requested, let available): .unsupportedLanguage(requested, available: available)
        case .notSaved: .internal(error.description)
        }
    }

    /// `status`: the core's own counts now; the installed release (its manifest and install record, read from the
    /// bundle) and whether edits are refused, off the core.
    private func status() async -> Answering {
        let status = environment.watcherStatus()
        let tables = await store.languages().reduce(0) { $0 + $1.tables.count }
        let uptime = (ContinuousClock.now - startedAt).components
        var answer = StatusAnswer(
            root: status.root, isRootPresent: status.isRootPresent, watchedDirectories: status.watchedDirectories,
            files: status.files, tables: tables, subscribers: subscriptions.count,
            connections: environment.connectionCount(), lastErrors: recentProblems.problems,
            uptime: Double(uptime.seconds) + Double(uptime.attoseconds) / 1e18,
            position: StreamPosition(epoch: store.epoch, seq: await store.seq))
        answer.pull = environment.pullStatus.map { StatusAnswer.Pull($0()) }
        answer.missing = missingKeys.counts
        answer.webURL = environment.webURL
        let root = environment.root
        let editor = environment.bundleEditor
        return .offCore(OffCoreWork(.reads) { [answer] _ in
            var answer = answer
            let releases = ReleaseStore(bundle: root)
            answer.release = releases.currentID()
            answer.releaseInfo = releases.current().map(StatusAnswer.Release.init)
            answer.readOnly = editor == nil ? "this server does not edit its bundle" : editor?.readOnlyReason()
            return .answer(.success(.status(answer)))
        })
    }
}
