import Foundation
import HotStringsClient
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Synchronization

/// `hotstrings-bench plurals`: plural formatting through `LiveStrings` against `String(format:)`, and a
/// `.stringsdict` save's way to a client next to a `.strings` save's.
struct PluralSuite: BenchmarkSuite {
    static let name = "plurals"
    static let abstract = "plurals: LiveStrings plural formatting vs String(format:); .stringsdict save-to-reload"
    static let help = """
        USAGE: swift run -c release hotstrings-bench plurals [--formats N] [--saves N]

        Starts a real `hotstrings serve` (built next to this benchmark) on a temporary bundle with an English
        Localizable.strings and Localizable.stringsdict, and a LiveStrings client in English connected to it.

        Formatting: `localizedString("items.count", arguments: [n])` (a plural rule: "1 item", "2 items") and
        `localizedString("messages.received", arguments: ["Ana", n])` (a positional format with a plural
        variable) through LiveStrings, against Foundation's `String(format:)` with the same arguments on the
        plain strings "%d items" and "%1$@ sent you %2$d messages" (Foundation on Linux cannot do the plural
        itself), n cycling through 0..1023, interleaved, median of 5. Bar: LiveStrings at least as fast.

        Save to reload: alternating atomic saves (write beside, rename over) of the .strings file and of the
        .stringsdict file, each changing one value, timed from the rename until the client's reload hook ran;
        the .stringsdict's median next to the .strings one's (same daemon, same client, same run).

        OPTIONS:
          --formats N   formats per run (default 500000)
          --saves N     saves of each file (default 40)
        """

    static let strings = """
        "greeting" = "Hello";
        "items.plain" = "%d items";
        """

    static func stringsdict(round: Int) -> String {
        func plural(_ one: String, _ other: String) -> String {
            "<dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
                + "<key>NSStringFormatValueTypeKey</key><string>d</string><key>one</key><string>\(one)</string>"
                + "<key>other</key><string>\(other)</string></dict>"
        }
        let suffix = round == 0 ? "" : " (\(round))"
        return #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>"#
            + "<key>items.count</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@items@</string>"
            + "<key>items</key>\(plural("%d item" + suffix, "%d items"))</dict>"
            + "<key>messages.received</key><dict><key>NSStringLocalizedFormatKey</key>"
            + "<string>%1$@ sent you %2$#@messages@</string>"
            + "<key>messages</key>\(plural("a message", "%d messages"))</dict></dict></plist>"
    }

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let formats = try options.positiveInteger("--formats") ?? 500_000
        let saves = try options.positiveInteger("--saves") ?? 40
        try options.finish()
        Signals.ignore(.pipe)

        let bundle = try TemporaryBundle(tables: [
            "en.lproj/Localizable.strings": strings, "en.lproj/Localizable.stringsdict": stringsdict(round: 0),
        ])
        defer { bundle.remove() }
        let daemon = try Daemon.launch(bundle: bundle.root)
        defer { _ = try? daemon.terminate() }
        let client = LiveStrings(configuration: LiveStrings.Configuration(
            socketPath: daemon.socket, clientName: "hotstrings-bench plurals", environment: ["LANG": "en_US.UTF-8"]))
        defer { client.stop() }
        guard client.blockUntilSynchronized(timeout: .seconds(20)) else {
            throw UsageError("the client did not synchronize with the daemon at \(daemon.socket)")
        }
        for count in [0, 1, 2, 21] {
            let expected = count == 1 ? "1 item" : String(format: "%d items", count)
            let found = client.localizedString("items.count", arguments: [count])
            guard found == expected else {
                throw UsageError("items.count with \(count) is '\(found)', not '\(expected)'")
            }
        }
        guard client.localizedString("messages.received", arguments: ["Ana", 1]) == "Ana sent you a message" else {
            throw UsageError("messages.received does not format as a plural")
        }

        print("plural rules: CLDR \(PluralRules.cldrVersion)")
        print("formats per second (\(formats) per run, median of 5, interleaved; n cycles through 0..1023)")
        print("  " + ["format", "LiveStrings", "String(format:)", "ratio"].map { Format.cell($0, 18, right: true) }
            .joined())
        var passes = true
        let cases: [(name: String, live: (Int) -> String, reference: (Int) -> String)] = [
            ("%#@items@", { client.localizedString("items.count", arguments: [$0]) },
             { String(format: "%d items", $0) }),
            ("%1$@ … %2$#@m@", { client.localizedString("messages.received", arguments: ["Ana", $0]) },
             { String(format: "%1$@ sent you %2$d messages", "Ana", $0) }),
        ]
        for (name, live, reference) in cases {
            var liveRates: [Double] = []
            var referenceRates: [Double] = []
            for _ in 0..<5 {
                liveRates.append(rate(formats, live))
                referenceRates.append(rate(formats, reference))
            }
            let ratio = Measure.median(liveRates) / Measure.median(referenceRates)
            passes = passes && ratio >= 1
            print("  " + [name, String(format: "%.0f", Measure.median(liveRates)),
                          String(format: "%.0f", Measure.median(referenceRates)), Format.ratio(ratio)]
                .map { Format.cell($0, 18, right: true) }.joined())
        }

        let latency = try SaveLatency(bundle: bundle, client: client, saves: saves)
        print("save to reload hook (\(saves) saves of each, alternating): .strings median "
              + String(format: "%.3f ms", latency.strings * 1e3) + ", p90 "
              + String(format: "%.3f ms", latency.stringsP90 * 1e3) + "; .stringsdict median "
              + String(format: "%.3f ms", latency.stringsdict * 1e3) + ", p90 "
              + String(format: "%.3f ms", latency.stringsdictP90 * 1e3) + "; ratio .stringsdict / .strings "
              + Format.ratio(latency.stringsdict / latency.strings))
        print(passes ? "PASS: plural formatting at least as fast as String(format:)"
                     : "FAIL: plural formatting slower than String(format:)")
        return passes ? 0 : 1
    }

    /// Formats per second of `body` over `count` calls.
    private static func rate(_ count: Int, _ body: (Int) -> String) -> Double {
        1 / SpecifierSuite.secondsPerCall(count, body)
    }
}

/// Save-to-reload times of the bundle's `.strings` and `.stringsdict`, in seconds.
struct SaveLatency {
    var strings: Double, stringsP90: Double
    var stringsdict: Double, stringsdictP90: Double

    init(bundle: TemporaryBundle, client: LiveStrings, saves: Int) throws {
        let arrivals = ArrivalLog()
        let token = client.onReload { _ in arrivals.record() }
        defer { token.cancel() }
        var stringsTimes: [Double] = []
        var stringsdictTimes: [Double] = []
        for round in 1...saves {
            for isStringsdict in [false, true] {
                let start = ContinuousClock.now
                if isStringsdict {
                    try bundle.atomicallyReplace("en.lproj/Localizable.stringsdict",
                                                 with: PluralSuite.stringsdict(round: round))
                } else {
                    try bundle.atomicallyReplace("en.lproj/Localizable.strings",
                                                 with: PluralSuite.strings + "\n\"round\" = \"\(round)\";")
                }
                guard let arrival = arrivals.wait(timeout: .seconds(5)) else {
                    let file = isStringsdict ? ".stringsdict" : ".strings"
                    throw UsageError("no reload within 5 s of saving the \(file)")
                }
                let seconds = (arrival - start).seconds
                if isStringsdict { stringsdictTimes.append(seconds) } else { stringsTimes.append(seconds) }
            }
        }
        func percentile(_ samples: [Double], _ fraction: Double) -> Double {
            let sorted = samples.sorted()
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        strings = Measure.median(stringsTimes)
        stringsP90 = percentile(stringsTimes, 0.9)
        stringsdict = Measure.median(stringsdictTimes)
        stringsdictP90 = percentile(stringsdictTimes, 0.9)
    }
}
