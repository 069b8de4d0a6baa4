import Foundation
import HotStringsTestSupport
import Testing

/// `hotstrings watch BUNDLE` prints what `hotstrings subscribe` prints from `hotstrings serve BUNDLE` (issue 21):
/// `watch` once had an encoder of its own and its snapshots and reloads lacked `rules`.
@Suite(needsHotstringsBinary)
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

    @Test func watchPrintsTheSnapshotAndReloadThatSubscribeDoes() throws {
        let served = try ServedBundle()
        let subscriber = try served.start(["subscribe"])
        let watch = try HotstringsProcess(["watch", served.bundle])
        try subscriber.stdout.wait(for: "the subscriber's snapshot") { lines($0).count >= 1 }
        try watch.stdout.wait(for: "watch's snapshot") { lines($0).count >= 1 }

        let snapshot = lines(subscriber.stdout.text)[0]
        #expect(withoutPosition(snapshot).hasPrefix(#"{"event":"snapshot","epoch":_,"seq":_,"tables":["#))
        #expect(withoutPosition(lines(watch.stdout.text)[0]) == withoutPosition(snapshot))
        // The three .stringsdict tables and Settings.xcstrings' plural rules in its three languages.
        #expect(try countWithRules(snapshot, in: "tables") == 6)

        let path = "fr.lproj/Localizable.stringsdict"
        try served.save(try served.sandbox.read(path).replacingOccurrences(of: "%d éléments<", with: "%d objets<"),
                        to: path)
        try subscriber.stdout.wait(for: "the subscriber's reload") { lines($0).count >= 2 }
        try watch.stdout.wait(for: "watch's reload") { lines($0).count >= 2 }
        let reload = lines(subscriber.stdout.text)[1]
        #expect(withoutPosition(reload).hasPrefix(#"{"event":"reload","epoch":_,"seq":_,"changes":["#))
        #expect(withoutPosition(lines(watch.stdout.text)[1]) == withoutPosition(reload))
        #expect(try countWithRules(reload, in: "changes") == 1)

        #expect(watch.terminate() == 0)
        try subscriber.process.send(.interrupt)
        #expect(subscriber.waitForExit() == 0)
        #expect(try served.stop() == 0)
    }
}
