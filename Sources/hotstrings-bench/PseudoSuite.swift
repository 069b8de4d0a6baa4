import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem
import StringsFormat

/// `hotstrings-bench pseudo`: lookups in the pseudo-language `en-XA` against lookups in `en`, the language it is
/// made from, on one daemon.
struct PseudoSuite: BenchmarkSuite {
    static let name = "pseudo"
    static let abstract = "pseudo: LiveStrings lookups in en-XA (serve --pseudo-languages) vs in en"
    static let help = """
        USAGE: swift run -c release hotstrings-bench pseudo [--lookups N] [--keys N]

        Starts a real `hotstrings serve --pseudo-languages` (built next to this benchmark) on a temporary bundle
        with a generated en.lproj/Localizable.strings, and a de.lproj/Localizable.strings whose values are the
        en-XA texts of en's, byte for byte; then three LiveStrings clients, in en, en-XA and de (LANGUAGE). One
        thread looks up every key in turn through each client, interleaved (the order rotating), median of 5.

        The pseudo tables are served like any other (derived in the store when en changes), so a lookup in
        en-XA should cost what one in a real language with the same texts (de here) costs. A lookup copies the
        value, so en, whose values are shorter and ASCII, is faster: shown for reference.
        Bar: en-XA at least 0.9x the lookups per second of de.

        OPTIONS:
          --lookups N   lookups per run (default 2000000)
          --keys N      keys of the table (default 2000)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let lookups = try options.positiveInteger("--lookups") ?? 2_000_000
        let keyCount = try options.positiveInteger("--keys") ?? 2_000
        try options.finish()
        Signals.ignore(.pipe)

        let values = (0..<keyCount).map { "Delete %@ and its \($0) <b>files</b>?" }
        func table(_ values: [String]) -> String {
            values.enumerated().map { "\"pseudo.key.\($0.offset)\" = \"\($0.element)\";" }.joined(separator: "\n")
        }
        let bundle = try TemporaryBundle(tables: [
            "en.lproj/Localizable.strings": table(values),
            "de.lproj/Localizable.strings": table(values.map(PseudoLocalizer.accented.transform)),
        ])
        defer { bundle.remove() }
        let daemon = try Daemon.launch(bundle: bundle.root, arguments: ["--pseudo-languages"])
        defer { _ = try? daemon.terminate() }
        func client(_ language: String) throws -> LiveStrings {
            let strings = LiveStrings(configuration: LiveStrings.Configuration(
                socketPath: daemon.socket, clientName: "hotstrings-bench pseudo",
                environment: ["LANGUAGE": language, "LANG": "en_US.UTF-8"]))
            guard strings.blockUntilSynchronized(timeout: .seconds(20)) else {
                throw UsageError("the client did not synchronize with the daemon at \(daemon.socket)")
            }
            return strings
        }
        let english = try client("en")
        defer { english.stop() }
        let pseudo = try client("en-XA")
        defer { pseudo.stop() }
        let german = try client("de")
        defer { german.stop() }
        let keys = (0..<keyCount).map { LookupKey(table: "Localizable", key: "pseudo.key.\($0)") }
        let sample = pseudo.localizedString("pseudo.key.1")
        guard pseudo.currentLanguage == "en-XA", sample.hasPrefix("[Ðéļéţé %@"),
              german.localizedString("pseudo.key.1") == sample else {
            throw UsageError("the en-XA client reads '\(sample)' in \(pseudo.currentLanguage): no pseudo-language")
        }
        print("bundle: en.lproj/Localizable.strings, \(keyCount) keys; en-XA reads \(sample.debugDescription)")

        let clients = [english, pseudo, german]
        var rates = [[Double]](repeating: [], count: clients.count)
        for round in 0..<5 {
            // Each goes first in turn, so none always runs on a cooler cache or a quieter machine.
            for offset in 0..<clients.count {
                let index = (round + offset) % clients.count
                let client = clients[index]
                rates[index].append(LookupRate.measure(threads: 1, lookups: lookups, keys: keys) {
                    client.localizedString($0.key, table: $0.table)
                })
            }
        }
        let (englishRate, pseudoRate, germanRate) = (Measure.median(rates[0]), Measure.median(rates[1]),
                                                     Measure.median(rates[2]))
        print("lookups per second, one thread, median of 5 (\(lookups) lookups per run)")
        print("  en                      " + String(format: "%12.0f", englishRate))
        print("  en-XA (derived)         " + String(format: "%12.0f", pseudoRate)
              + "   ratio en-XA/de " + Format.ratio(pseudoRate / germanRate)
              + ", en-XA/en " + Format.ratio(pseudoRate / englishRate))
        print("  de (en-XA's texts)      " + String(format: "%12.0f", germanRate))
        let passes = pseudoRate >= 0.9 * germanRate
        print("  bar en-XA at least 0.9x de: \(passes ? "PASS" : "FAIL")")
        return passes ? 0 : 1
    }
}
