import Foundation
import HotStringsClient
import LinuxSystem
import StringsFormat
import Synchronization

/// `hotstrings demo`: a screen of labels drawn from `LiveStrings` that redraws on every reload.
///
/// The `reloadTexts` pattern of an app, in a terminal: labels are looked up synchronously from the client's
/// mirror, and an `onReload` hook asks for a redraw whenever a file edit or a language switch changed them.
struct DemoCommand: Command {
    static let spec = CommandSpec(
        name: "demo",
        abstract: "Show labels from the daemon's bundle that redraw live (the reloadTexts pattern).",
        discussion: """
            Connects to the running daemon (hotstrings serve) with the HotStringsClient library and draws a \
            screen of labels of the sample bundle: a greeting, a title, a count and a message formatted with \
            arguments, settings and buttons, each one synchronous lookup. The count is a plural label \
            (items.count, a .stringsdict entry) whose number ticks up once a second, so its form changes \
            as a user would see it: 1 item, 2 items (and 1 élément, 2 éléments in French, where 0 is \
            singular too). Whenever the client reports a change (a .strings or .stringsdict file was saved, \
            or any program ran hotstrings select-language) the screen is cleared and drawn again, with the \
            current language and what the last change was.

            Without a daemon the screen says it is waiting for one; the client reconnects on its own, and \
            the screen shows the labels as soon as it has them. If the daemon goes away later, the last \
            strings stay on screen. --once prints one frame without terminal control codes and exits: 0 \
            with the labels, 2 when the daemon did not answer within --timeout.

            Runs until SIGINT (Control-C) or SIGTERM, then exits with 0.
            """,
        options: [ClientOptions.table, isOnce] + ClientOptions.options,
        exitCodes: [
            (ExitCode.success, "Stopped by SIGINT or SIGTERM, or printed the frame (--once)."),
            (ExitCode.cannotConnect, "--once: no daemon answered within --timeout (the frame says so)."),
            (ExitCode.usage, "The command line is wrong."),
        ]
    )

    static let isOnce: CommandOption<Bool> = .flag("once", help: "Print one frame once the labels arrived, then exit.")

    var table: String
    var isOnce: Bool
    var client: ClientOptions

    init(arguments: ParsedArguments) throws(UsageError) {
        guard arguments.positionals.isEmpty else { throw UsageError("demo takes no arguments") }
        table = try arguments[ClientOptions.table]
        isOnce = try arguments[Self.isOnce]
        client = try ClientOptions(arguments)
    }

    func run<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        isOnce ? runOnce(io: &io) : runLive(io: &io)
    }

    private func makeClient() -> LiveStrings {
        LiveStrings(configuration: LiveStrings.Configuration(
            socketPath: client.socketPath, tables: [table], clientName: "hotstrings demo",
            trustedServerUserIDs: Array(client.trust.trustedUserIDs)))
    }

    private func runOnce<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        let strings = makeClient()
        defer { strings.stop() }
        let isSynchronized = strings.blockUntilSynchronized(timeout: client.timeout)
        let screen = DemoScreen(table: table, socketPath: client.socketPath)
        io.stdout.write(screen.frame(strings, lastChange: nil, redraws: 1, counter: 1))
        guard isSynchronized else {
            // The client retries a refused server silently; one more attempt says why, if that was it.
            let attempt = Result { () throws(ConnectionError) in
                try LineConnection(path: client.socketPath, trust: client.trust)
            }
            if case .failure(let error) = attempt, case .untrustedServer = error {
                io.printError("\(error)")
            } else {
                io.printError("no answer from the daemon at \(client.socketPath)")
            }
            return ExitCode.cannotConnect
        }
        return ExitCode.success
    }

    private func runLive<Output, ErrorOutput>(io: inout CommandIO<Output, ErrorOutput>) -> Int32 {
        // Blocked before any other thread exists (the client's included), so every thread inherits the mask
        // and the signals wait for the thread below instead of killing the process.
        Signals.block([.interrupt, .terminate])
        let wakeups = DemoWakeups()
        Thread {
            _ = Signals.waitForAny(of: [.interrupt, .terminate])
            wakeups.stop()
        }.start()
        let strings = makeClient()
        // The reloadTexts hook: it runs on the client's thread, so it only records the change and wakes
        // the drawing loop, like an app hopping to its main thread.
        let token = strings.onReload { change in wakeups.record(change) }
        let screen = DemoScreen(table: table, socketPath: client.socketPath)
        var redraws = 0
        var drawnStatus: DemoScreen.Status?
        var drawnCounter = -1
        let start = ContinuousClock.now
        io.stdout.write(DemoScreen.hideCursor)
        while !wakeups.isStopping {
            let status = DemoScreen.Status(strings)
            let lastChange = wakeups.lastChange
            // The plural label's number: 0, 1, 2 … 25, then again, one step a second.
            let counter = Int((ContinuousClock.now - start).components.seconds % 26)
            if drawnStatus != status || lastChange.isNew || counter != drawnCounter {
                redraws += 1
                io.stdout.write(DemoScreen.clear + screen.frame(strings, lastChange: lastChange.text, redraws: redraws,
                                                                counter: counter))
                drawnStatus = status
                drawnCounter = counter
            }
            // A reload or a signal wakes the loop at once; the timeout ticks the counter and notices a daemon that
            // went away or came back without changing any label (the client has no hook for that).
            wakeups.wait(timeout: .milliseconds(250))
        }
        token.cancel()
        strings.stop()
        io.stdout.write(DemoScreen.showCursor + "\n")
        return ExitCode.success
    }
}

/// What wakes the demo's drawing loop: changes from the reload hook and the stop signal.
final class DemoWakeups: Sendable {
    private struct State {
        var lastChange: String?
        var isNew = false
        var isStopping = false
    }

    private let state = Mutex(State())
    private let semaphore = DispatchSemaphore(value: 0)

    /// Records `change` as the last one and wakes the loop.
    func record(_ change: LocalizationChange) {
        let text = DemoScreen.describe(change, at: Date())
        state.withLock {
            $0.lastChange = text
            $0.isNew = true
        }
        semaphore.signal()
    }

    /// Asks the loop to end.
    func stop() {
        state.withLock { $0.isStopping = true }
        semaphore.signal()
    }

    /// Whether the loop should end.
    var isStopping: Bool { state.withLock { $0.isStopping } }

    /// The last change's description, and whether it arrived since the previous call.
    var lastChange: (text: String?, isNew: Bool) {
        state.withLock { state in
            defer { state.isNew = false }
            return (state.lastChange, state.isNew)
        }
    }

    /// Waits for a wake-up or the timeout.
    func wait(timeout: Duration) {
        let milliseconds = timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000
        _ = semaphore.wait(timeout: .now() + .milliseconds(Int(milliseconds)))
    }

}

/// Draws the demo's frame: labels looked up from `LiveStrings`, then the language and connection lines.
struct DemoScreen {
    /// ANSI: cursor home, erase the screen.
    static let clear = "\u{1B}[H\u{1B}[2J"
    /// ANSI: hide the cursor while the demo runs.
    static let hideCursor = "\u{1B}[?25l"
    /// ANSI: show the cursor again.
    static let showCursor = "\u{1B}[?25h"

    /// The connection state shown on screen; a change of it alone also redraws.
    struct Status: Equatable {
        var isConnected: Bool
        var isSynchronized: Bool
        var language: String

        init(_ strings: LiveStrings) {
            isConnected = strings.isConnected
            isSynchronized = strings.isSynchronized
            language = strings.currentLanguage
        }
    }

    var table: String
    var socketPath: String

    /// One frame, ending with a newline; `counter` is the number the plural label shows.
    func frame(_ strings: LiveStrings, lastChange: String?, redraws: Int, counter: Int) -> String {
        let rule = String(repeating: "─", count: 64)
        var lines = ["HotStrings demo: the reloadTexts pattern, live (table \(table))", rule]
        let status = Status(strings)
        let hasLabels = status.isSynchronized || lastChange != nil
        if hasLabels {
            lines += labels(strings, showsBanner: lastChange != nil && redraws > 1, counter: counter)
        } else {
            lines += ["", "  waiting for the daemon at \(socketPath) …",
                      "  (retrying on its own; start one with: hotstrings serve --socket \(socketPath) <bundle>)", ""]
        }
        lines.append(rule)
        var language = "language:    \(status.language)"
        if let selected = strings.selectedLanguage { language += " (selected: \(selected))" }
        let supported = strings.supportedLanguages
        if !supported.isEmpty { language += "; the bundle has \(supported.joined(separator: ", "))" }
        lines.append(language)
        let connection = switch (status.isConnected, status.isSynchronized, hasLabels) {
        case (_, true, _): "connected to \(socketPath)"
        case (true, false, _): "connected to \(socketPath), synchronizing …"
        case (false, _, true): "the daemon went away: showing the last strings, reconnecting …"
        case (false, _, false): "waiting for the daemon (reconnecting on its own)"
        }
        lines.append("daemon:      \(connection)")
        lines.append("last change: \(lastChange ?? "none yet")")
        lines.append("")
        lines.append("Edit a \(table).strings or .stringsdict file of the bundle, or run")
        lines.append("`hotstrings select-language fr` in another terminal. Control-C quits.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The labels, as an app's screen would show them.
    private func labels(_ strings: LiveStrings, showsBanner: Bool, counter: Int) -> [String] {
        func text(_ key: String) -> String { strings.localizedString(key, table: table) }
        func format(_ key: String, _ arguments: [any CVarArg]) -> String {
            strings.localizedString(key, table: table, arguments: arguments)
        }
        let subtitle = text("welcome.subtitle").split(separator: "\n", omittingEmptySubsequences: false)
        var lines = ["", "  " + text("greeting"), "", "  " + text("welcome.title")]
        lines += subtitle.map { "    " + $0 }
        lines += [
            "",
            "  • " + format("items.count", [counter]),
            "  • " + format("messages.received", ["Ana", 3]),
            "  • " + format("profile.online", ["Ana"]),
            "  • " + text("map.cafe"),
            "",
            "  \(text("settings.title")) › \(text("settings.language")): \(strings.currentLanguage)",
            "  [ \(text("button.ok")) ]  [ \(text("button.cancel")) ]  [ \(text("Done")) ]",
        ]
        if showsBanner { lines += ["", "  " + text("reload.banner")] }
        lines.append("")
        return lines
    }

    /// `12:03:04 file edit: de/Localizable, 2 keys (greeting, map.cafe)`, escaped for the terminal (table names and
    /// keys come from the bundle).
    static func describe(_ change: LocalizationChange, at date: Date) -> String {
        let cause = switch change.cause {
        case .snapshot: "snapshot"
        case .reload: "file edit"
        case .language: "language switched to \(change.language)"
        }
        var text = timeFormatter.string(from: date) + " " + cause
        if !change.tables.isEmpty { text += ": " + change.tables.sorted().map(\.description).joined(separator: ", ") }
        let keys = change.keys.values.flatMap { $0 }.sorted()
        let shown = keys.prefix(3).joined(separator: ", ") + (keys.count > 3 ? ", …" : "")
        text += ", \(keys.count) \(keys.count == 1 ? "key" : "keys")" + (keys.isEmpty ? "" : " (\(shown))")
        return DisplayText.escaped(text)
    }

    private static var timeFormatter: DateFormatter {
        let formatter = DateFormatter()
        formatter.dateFormat = "HH:mm:ss"
        return formatter
    }
}
