import BundleChanges
import LinuxSystem
import Testing
@testable import BundleWatcher

/// Two language folders of one language (`de.lproj` and `DE.lproj`): one is served, by the rule of `BundleNames`,
/// and the clash is reported, never left silent (issue 20, finding 12).
@Suite struct WatcherLanguageClashTests {
    @Test func theCanonicalFolderIsServedAndTheClashReported() throws {
        let session = try WatchSession(files: [
            "de.lproj/Localizable.strings": stringsText(["greeting": "Hallo"]),
            "DE.lproj/Localizable.strings": stringsText(["only.here": "x"]),
            "DE.lproj/Other.strings": stringsText(["other": "y"]),
        ])
        #expect(session.initial.seen == ["de.lproj/Localizable.strings": .parsed(["greeting": "Hallo"])])
        let problems = session.initial.problems.filter { $0.message.contains("same language") }
        #expect(problems.map(\.file) == ["DE.lproj"])
        #expect(problems.first?.message.contains("'DE.lproj' and 'de.lproj' are the same language (de)") == true)
        #expect(problems.first?.message.contains("only 'de.lproj' is served") == true)
    }

    /// Neither name is the canonical one (`de-DE`): the first in byte order is served.
    @Test func withoutTheCanonicalNameTheFirstInByteOrderIsServed() throws {
        let session = try WatchSession(files: [
            "de_DE.lproj/Localizable.strings": stringsText(["a": "underscore"]),
            "de-de.lproj/Localizable.strings": stringsText(["a": "hyphen"]),
        ])
        #expect(session.initial.seen == ["de-de.lproj/Localizable.strings": .parsed(["a": "hyphen"])])
        #expect(session.initial.problems.map(\.file) == ["de_DE.lproj"])
    }

    /// A folder of the same language moved in takes over when the rule picks it, and the one served before goes,
    /// with the clash reported; once it is removed again, the other is served again.
    @Test func aClashMadeAndResolvedWhileWatched() throws {
        let session = try WatchSession(files: [
            "DE.lproj/Localizable.strings": stringsText(["greeting": "upper"]),
            "staging/de.lproj/Localizable.strings": stringsText(["greeting": "lower"]),
        ])
        #expect(session.initial.seen == ["DE.lproj/Localizable.strings": .parsed(["greeting": "upper"])])
        let start = session.log.count
        try session.bundle.rename("staging/de.lproj", to: "de.lproj")
        try session.log.waitForTables("de.lproj served instead of DE.lproj") { tables in
            tables == ["de.lproj/Localizable.strings": .parsed(["greeting": "lower"])]
        }
        let reported = session.log.all[start...].flatMap(\.problems).filter { $0.message.contains("same language") }
        #expect(reported.map(\.file) == ["DE.lproj"], "\(reported)")

        try session.bundle.remove("de.lproj")
        try session.log.waitForTables("DE.lproj served again") { tables in
            tables == ["DE.lproj/Localizable.strings": .parsed(["greeting": "upper"])]
        }
    }
}
