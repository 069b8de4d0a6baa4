import BundleWatcher
import HotStringsClient
import HotStringsFront
import HotStringsProtocol
import HotStringsRelease
import HotStringsService
import LinuxSystem
import StringsFormat
import Synchronization

/// A `HotStringsTransport` that runs the daemon's service host (watcher, store, selection file, pull loop and
/// protocol service) inside the process, with one session as its front.
///
/// The host's core takes each settled batch and each request of the session on a thread of its own (a
/// `ThreadExecutor`), as the daemon's does, so a program that blocks the pool's threads still gets its
/// reloads; a delivery thread hands the service's events and answers to the client, so reload hooks run there,
/// never on the cooperative pool. There is one connection, made once the first scan is in the store, and it
/// lasts until `stop()`.
package final class EmbeddedTransport: HotStringsTransport {
    /// The service host.
    let host: ServiceHost<TransportEvents>
    private let session: EmbeddedSession
    private let deliverer: Deliverer
    /// The translator's page, with `EmbeddedOptions.webPort`.
    private let web: EmbeddedWeb?
    private let onWebPage: (@Sendable (String) -> Void)?
    private let isStopped = Atomic<Bool>(false)

    /// Prepares the host for the bundle at `bundle`; nothing runs before `start`.
    ///
    /// - Throws: `EmbeddedStartError` when an option is out of the range the daemon accepts too (the
    ///   development language is no language tag, `pull`'s limits), the bundle cannot be pulled into or
    ///   watched, or the state directory cannot be created.
    package init(bundle: String, options: LiveStrings.EmbeddedOptions, pull: LiveStrings.PullSource? = nil)
        throws(EmbeddedStartError) {
        var serviceOptions = try Self.serviceOptions(bundle: bundle, options, pull)
        serviceOptions.requiresStateDirectory = true
        var hooks = ServiceHost<TransportEvents>.Hooks()
        if let pull {
            hooks.onPullReport = { report in
                switch report.result {
                case .success(let outcome):
                    if case .installed = outcome.kind { pull.onInstall?(outcome.release) }
                case .failure(let error):
                    if !report.isRepeatedFailure { pull.onFailure?(error.problem) }
                }
            }
        }
        do {
            host = try ServiceHost(serviceOptions, hooks: hooks)
        } catch {
            let code: EmbeddedStartError.Code = switch error.stage {
            case .pull: .cannotPull
            case .watch: .cannotWatch
            case .stateDirectory: .cannotSaveSelection
            }
            throw EmbeddedStartError(code, description: error.description)
        }
        let deliverer = Deliverer()
        self.deliverer = deliverer
        session = EmbeddedSession(host: host, deliver: { deliverer.enqueue($0) })
        web = try options.webPort.map { [host] port throws(EmbeddedStartError) in
            try EmbeddedWeb(WebOptions(port: port, rotatesToken: options.rotatesWebToken),
                            stateDirectory: options.stateDirectory, host: host)
        }
        onWebPage = options.onWebPage
    }

    package func start(_ handler: @escaping @Sendable (TransportEvent) -> Void) {
        deliverer.start(handler)
        guard let web else {
            host.start(connectionCount: { 1 }) { [session] outputs in session.handle(outputs) }
            return
        }
        host.start(connectionCount: { 1 }, webURL: web.url) { [session] outputs in
            session.handle(web.route(outputs))
        }
        web.start()
        onWebPage?(web.url)
    }

    package func send(_ command: TransportCommand) {
        session.send(command)
    }

    package func request(_ request: Request) async throws(LiveStringsError) -> Answer {
        let result = await withCheckedContinuation { (reply: AnswerReply) in
            guard !isStopped.load(ordering: .acquiring) else {
                reply.resume(returning: .failure(.notConnected))
                return
            }
            session.request(request, reply)
        }
        return try result.get()
    }

    package func stop() {
        guard !isStopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Not waiting for the pull thread: `stop()` may come from `onFailure` on that thread.
        host.stopSources(waitingForPuller: false)
        deliverer.stop()
        session.stop()
        web?.stop()
        host.finish(waiting: false)
    }

    /// Whether the watcher's, the delivery, the service's, the puller's and the page's thread have all ended (after `stop()`).
    package var hasFinished: Bool {
        host.watcher.hasFinished && deliverer.hasFinished && host.hasEnded && (host.pullLoop?.hasEnded ?? true)
            && (web?.hasEnded ?? true)
    }

    /// Where the puller stands (nil without `pull`).
    package var pullStatus: PullStatus? { host.pullLoop?.status }

    /// The host's options for `options` and `pull`, checked where the daemon's are (`ServiceOptions`); a value
    /// out of range is named by its property.
    private static func serviceOptions(bundle: String, _ options: LiveStrings.EmbeddedOptions,
                                       _ pull: LiveStrings.PullSource?) throws(EmbeddedStartError) -> ServiceOptions {
        var watcher = BundleWatcher.Options()
        watcher.maximumFileSize = options.maximumFileSize
        watcher.followsExternalSymlinks = options.followsExternalSymlinks
        var pulling: (options: PullOptions, schedule: PullSchedule)?
        if let pull {
            var pullOptions: PullOptions
            do throws(ReleaseError) {
                pullOptions = try PullOptions(url: pull.url)
            } catch {
                throw EmbeddedStartError(.cannotPull, description: "cannot pull into \(bundle): \(error)")
            }
            pullOptions.keptReleases = pull.keptReleases
            pullOptions.maximumFileSize = pull.maximumFileSize
            pullOptions.maximumReleaseSize = pull.maximumReleaseSize
            pullOptions.limits.idleTimeout = pull.timeout
            for (index, text) in pull.trustedKeys.enumerated() {
                // A key line alone is a key file without its comment.
                let file = text.contains("\n") ? text : "untrusted comment: \n" + text
                do throws(MinisignError) {
                    pullOptions.trustedKeys.append(try MinisignPublicKey(fileText: file))
                } catch {
                    throw EmbeddedStartError(.invalidOption, description: "trustedKeys[\(index)] is not a minisign "
                        + "public key: \(error)")
                }
            }
            pulling = (pullOptions, PullSchedule(interval: pull.interval))
        }
        do throws(ServiceOptions.Error) {
            var service = try ServiceOptions(bundle: bundle, developmentLanguage: options.developmentLanguage,
                                             watcher: watcher, stateDirectory: options.stateDirectory, pull: pulling,
                                             log: options.log)
            service.pseudoLanguages = options.pseudoLanguages
            try service.setEditLockTimeout(options.editLockTimeout)
            return service
        } catch {
            let name = switch error.option {
            case .developmentLanguage: "developmentLanguage"
            case .settle, .batchWindow, .readAheadQuiet: "\(error.option)"
            case .maximumFileSize: "EmbeddedOptions.maximumFileSize"
            case .pullInterval: "interval"
            case .keptReleases: "keptReleases"
            case .maximumManifestSize: "maximumManifestSize"
            case .maximumDownloadSize: "PullSource.maximumFileSize"
            case .maximumReleaseSize: "maximumReleaseSize"
            case .maximumRedirects: "maximumRedirects"
            case .pullTimeout: "timeout"
            case .editLockTimeout: "editLockTimeout"
            }
            throw EmbeddedStartError(.invalidOption, description: "\(name) takes \(error.requirement)")
        }
    }
}
