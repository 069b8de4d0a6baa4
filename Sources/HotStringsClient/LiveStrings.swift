import Dispatch
import Foundation
import HotStringsProtocol
import LinuxSystem
import StringsFormat
import Synchronization

/// Live localized strings from a `hotstrings serve` daemon: a local mirror that answers lookups at once and
/// reloads itself when a `.strings` or `.stringsdict` file changes or the app language is switched.
///
/// ```swift
/// let strings = LiveStrings()
/// let token = strings.onReload { change in
///     DispatchQueue.main.async { reloadTexts() }   // hooks run on the client's background thread
/// }
/// label.text = strings.localizedString("greeting")
/// ```
///
/// Creating a client starts a background thread that connects to the daemon, subscribes, and keeps the
/// mirror current; lookups never touch the socket. When the daemon goes away the mirror keeps answering
/// with the last strings while the client reconnects (with exponential backoff) and resumes from where it
/// stood; when the daemon was restarted, a fresh snapshot replaces the mirror and hooks fire only for what
/// actually differs. Lookups are synchronous and safe from any thread.
///
/// Lookups resolve each key through a fallback chain: the bundle languages that answer the current language
/// (`de-CH` finds `de`, `zh-TW` finds `zh-Hant`, `es-MX` finds `es-419` then `es`: CLDR's likely subtags and
/// parent locales, as on Apple platforms; see `LanguageMatcher`), then those of the app language selected
/// through the daemon, then those of the development language, then `Base`. The current language is, first
/// match wins: the local override (`overrideLanguage(_:)`), the language selected through the daemon
/// (`setLanguage(_:)`), the first language of the environment the bundle has a language for (`LANGUAGE`,
/// `LC_ALL`, `LC_MESSAGES`, `LANG`, as gettext reads them), the development language.
public final class LiveStrings: Sendable {
    /// The table a lookup uses when none is named: `Localizable`.
    public static let defaultTable = "Localizable"

    let core: MirrorCore
    let transport: any HotStringsTransport
    /// Formats rules for the configured device.
    let formatter: StringsdictFormatter
    /// Records and reports the keys lookups miss (nil when `Configuration.reportsMissingKeys` is off).
    let missRecorder: MissRecorder?
    /// `missRecorder` as lookups pass it, without a retain (this client keeps the recorder alive).
    let missRecording: MissRecording?

    /// Starts a client of the daemon described by `configuration`; returns at once, without waiting for the
    /// connection (see `waitUntilSynchronized(timeout:)`).
    public convenience init(configuration: Configuration = Configuration()) {
        self.init(transport: SocketTransport(configuration: configuration), configuration: configuration)
    }

    /// Starts a client over `transport` (an in-process store, or a test double); `socketPath`, the reconnect
    /// delays and the request timeout of `configuration` are the transport's business and unused here.
    package init(transport: any HotStringsTransport, configuration: Configuration) {
        let engine = MirrorEngine(languages: configuration.languages, tables: configuration.tables,
                                  environment: configuration.environment)
        let core = MirrorCore(engine: engine, transport: transport)
        self.core = core
        self.transport = transport
        self.formatter = StringsdictFormatter(device: configuration.device)
        missRecorder = configuration.reportsMissingKeys
            ? MissRecorder(capacity: configuration.missingKeyCapacity) { [weak transport] report in
                guard let transport else { return true }
                do throws(LiveStringsError) {
                    _ = try await transport.request(.reportMissing(report))
                    return true
                } catch {
                    // A refused report would be refused again; anything else is worth another try.
                    return error.code == .rejected
                }
            }
            : nil
        missRecording = MissRecording(missRecorder)
        transport.start { event in core.handle(event) }
    }

    deinit {
        stop()
    }

    /// Disconnects for good: hooks stop firing and change sequences end, while lookups keep answering from
    /// the mirror as it last was. Called when the client is released.
    public func stop() {
        transport.stop()
        core.stop()
        missRecorder?.stop()
    }

    // MARK: - Lookups

    /// The value of `key` in `table` for the current language, through the fallback chain.
    ///
    /// Like `Bundle.localizedString(forKey:value:table:)`, a key found nowhere gives `value` when it is given
    /// and not empty, else the key itself. Never blocks on the daemon.
    /// - Complexity: one hash probe in an immutable table, without locks; the calling thread takes the new
    ///   mirror (under a lock) once after each reload. The result is a new string that shares no storage with
    ///   the mirror, so threads that look keys up at once do not contend on reference counts. A key found
    ///   nowhere, or only in a fallback language, is also counted for the daemon's `missing` list (`MissRecorder`).
    public func localizedString(_ key: String, table: String = LiveStrings.defaultTable,
                                value: String? = nil) -> String {
        core.read { $0.value(forKey: key, table: table, recordingMissesIn: missRecording) }
            ?? MirrorSnapshot.notFound(key, value: value)
    }

    /// The value of `key` in `table` formatted with `arguments`, as `String.localizedStringWithFormat` formats a
    /// `.stringsdict` entry or a plain string.
    ///
    /// A key whose value is a format rule (a `.stringsdict` entry) picks each `%#@variable@`'s text with the
    /// plural rules of the language its table is in: a `de` lookup that falls back to the `en` table formats
    /// "1 file" with English rules. Numbers select plural forms (integers; a `Double` as ICU reads it; a string
    /// is read as a decimal number as written, so `"1.0"` is `other` in English); `width` picks the texts of
    /// variable width rules (the largest width not above it; nil picks the widest), and `Configuration.device`
    /// those of device-specific rules. A plain value is formatted as `String(format:)` formats it. Positional
    /// specifiers (`%1$@`, `%2$d`) let a translation reorder the arguments. As with `String(format:)`, the arguments
    /// must match the specifiers' types; a rule that cannot be formatted with them (a missing argument, a form
    /// without `other`) falls back to its plain text formatted, and a plain text that cannot be formatted is
    /// returned as it is.
    ///
    /// Both go through `StringsdictFormatter`, never Foundation's `String(format:)`, which a translation can
    /// crash (`%*d` given a large number): widths are capped and the result is at most
    /// `StringsdictFormatter.maximumOutputSize` bytes.
    public func localizedString(_ key: String, table: String = LiveStrings.defaultTable,
                                arguments: [any CVarArg], width: Int? = nil) -> String {
        core.read {
            $0.formatted(key, table: table, arguments: arguments, width: width, formatter: formatter,
                         recordingMissesIn: missRecording)
        }
    }

    /// The value of `key` in the default table, formatted with `arguments` (see
    /// `localizedString(_:table:arguments:)`): `strings.format("messages.received", "Ana", 3)`.
    public func format(_ key: String, _ arguments: any CVarArg...) -> String {
        localizedString(key, arguments: arguments)
    }

    // MARK: - Languages

    /// The language lookups start from (see the type's overview for how it is chosen).
    public var currentLanguage: String { core.read { $0.status.language } }

    /// The languages the bundle has, without `Base`, sorted; empty until the daemon answered once.
    public var supportedLanguages: [String] { core.read { $0.status.supportedLanguages } }

    /// The app language selected through the daemon (by any program of the app), or nil.
    public var selectedLanguage: String? { core.read { $0.status.selectedLanguage } }

    /// The bundle's development language, the last before `Base` in every chain (`en` until the daemon says).
    public var developmentLanguage: String { core.read { $0.status.developmentLanguage } }

    /// Selects the app language through the daemon, or clears the selection with nil.
    ///
    /// The daemon keeps the selection across restarts and tells every client, so all programs of the app
    /// switch; this client has switched (and its hooks have run) when the call returns. A local override
    /// still wins over the selection.
    /// - Throws: `LiveStringsError` of code `.rejected` with `rejectionCode` `unsupported_language` (and the
    ///   `availableLanguages`) when the bundle does not have it, `.notConnected` while the daemon is away; match
    ///   on `error.code` with a `default:`, since codes may be added.
    public func setLanguage(_ language: String?) async throws(LiveStringsError) {
        _ = try await transport.request(.selectLanguage(language))
    }

    /// Overrides the language for this process only (nil clears the override); hooks fire for the keys
    /// whose value changes, before this returns.
    public func overrideLanguage(_ language: String?) {
        core.setOverride(language)
    }

    // MARK: - Reloads

    /// Registers `hook` to run after each change that alters some looked-up value, with the keys that did.
    ///
    /// Hooks run on the client's background thread (or on the thread that called `overrideLanguage(_:)`), one
    /// change at a time, in registration order; hop to your UI thread from there. The mirror already holds
    /// the new values when a hook runs.
    /// - Returns: a token that keeps the hook registered: `cancel()` it, or release it, to unregister.
    public func onReload(_ hook: @escaping @Sendable (LocalizationChange) -> Void) -> ReloadToken {
        let id = core.hooks.add(HookRegistry.Hook(deliver: hook, finish: nil))
        return ReloadToken(registry: core.hooks, id: id)
    }

    /// The same changes as `onReload`, as an asynchronous sequence that ends when the client stops.
    ///
    /// At most `bufferLimit` changes wait for a slow reader; beyond that, new changes are merged into the
    /// newest waiting one, so none is lost (see `LocalizationChanges`).
    public func changes(bufferLimit: Int = 16) -> LocalizationChanges {
        let buffer = ChangeBuffer(limit: bufferLimit)
        buffer.attach(to: core.hooks)
        return LocalizationChanges(buffer: buffer)
    }

    /// How many mirror snapshots exist in the process, for all clients: the current one of each client, and
    /// replaced ones that a reading thread still holds until its next lookup (for benchmarks and tests).
    package static var liveSnapshotCount: Int { MirrorSnapshot.liveCount.load(ordering: .relaxed) }

    // MARK: - Connection

    /// Whether the client is connected to the daemon right now.
    public var isConnected: Bool { core.read { $0.status.isConnected } }

    /// Whether the mirror is current: connected, with a snapshot taken and no resynchronization pending.
    public var isSynchronized: Bool { core.read { $0.status.isSynchronized } }

    /// Waits until the mirror is synchronized; false when `timeout` passed first or the client stopped.
    public func waitUntilSynchronized(timeout: Duration) async -> Bool {
        await core.waitUntilSynchronized(timeout: timeout)
    }

    /// Blocks the calling thread until the mirror is synchronized; false when `timeout` passed first.
    ///
    /// For plain threads and command-line tools; never call it from a task on Swift's concurrency pool,
    /// whose threads it would hold.
    public func blockUntilSynchronized(timeout: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let result = Atomic<Bool>(false)
        Task {
            result.store(await core.waitUntilSynchronized(timeout: timeout), ordering: .releasing)
            done.signal()
        }
        done.wait()
        return result.load(ordering: .acquiring)
    }
}
