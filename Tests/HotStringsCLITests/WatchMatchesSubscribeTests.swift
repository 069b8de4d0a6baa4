import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import Testing

/// `hotstrings watch BUNDLE` prints what `hotstrings subscribe` prints from `hotstrings serve BUNDLE` (issue 21):
/// `watch` once had an encoder of its own and its snapshots and reloads lacked `rules`.
@Suite(.needsHotstringsBinary)
struct WatchMatchesSubscribeTests {
    /// The complete lines printed so far.
    func lines(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// `line` with its `epoch` and `seq` values replaced by `_`: the two processes number their events apart.
    func withoutPosition(_ line: String) -> String {
        line.replacing(#/"epoch":\d+,"seq":\d+,/#, with: #""epoch":_,"seq":_,"#, maxReplacements: 1)
    }

    /// How many tables (of a snapshot) or changes (of a reload) in `line` have `rules`.
    func countWithRules(_ line: String, in member: String) throws -> Int {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let items = try #require(object[member] as? [[String: Any]])
        return items.filter { $0["rules"] != nil }.count
    }

    /// Waits for line `number` of both processes' output and expects them equal but for `epoch` and `seq`; the
    /// subscriber's line.
    private func sameLine(_ number: Int, of subscriber: HotstringsProcess, and watch: HotstringsProcess,
                          what: String) throws -> String {
        try subscriber.stdout.wait(for: "the subscriber's \(what)") { lines($0).count >= number }
        try watch.stdout.wait(for: "watch's \(what)") { lines($0).count >= number }
        let line = lines(subscriber.stdout.text)[number - 1]
        #expect(withoutPosition(lines(watch.stdout.text)[number - 1]) == withoutPosition(line))
        return line
    }

    @Test func watchPrintsTheSnapshotAndReloadThatSubscribeDoes() throws {
        let served = try ServedBundle()
        let subscriber = try served.start(["subscribe"])
        let watch = try HotstringsProcess(["watch", served.bundle])
        let snapshot = try sameLine(1, of: subscriber, and: watch, what: "snapshot")
        #expect(withoutPosition(snapshot).hasPrefix(#"{"event":"snapshot","epoch":_,"seq":_,"tables":["#))
        // The three .stringsdict tables and Settings.xcstrings' plural rules in its three languages.
        #expect(try countWithRules(snapshot, in: "tables") == 6)

        let path = "fr.lproj/Localizable.stringsdict"
        try served.save(try served.sandbox.read(path).replacingOccurrences(of: "%d éléments<", with: "%d objets<"),
                        to: path)
        let reload = try sameLine(2, of: subscriber, and: watch, what: "reload")
        #expect(withoutPosition(reload).hasPrefix(#"{"event":"reload","epoch":_,"seq":_,"changes":["#))
        #expect(try countWithRules(reload, in: "changes") == 1)

        #expect(watch.terminate() == 0)
        try subscriber.process.send(.interrupt)
        #expect(subscriber.waitForExit() == 0)
        #expect(try served.stop() == 0)
    }
}
