import BundleChanges
import LinuxSystem
import StringsFormat
import Testing
@testable import BundleWatcher

/// `LanguageFolderNames`: the root's language folders by language, and which of one language's folders is served,
/// without a bundle (the watcher's clash tests drive it over real folders).
@Suite struct LanguageFolderNamesTests {
    let german = LanguageTag("de")!

    private func entries(_ names: String...) -> [FileSystem.DirectoryEntry] {
        names.map { FileSystem.DirectoryEntry(name: $0, kind: .directory) }
    }

    @Test func aListingGroupsTheLanguageFoldersByLanguage() {
        var names = LanguageFolderNames()
        names.rebuild(from: entries("de.lproj", "DE.lproj", "de-DE.lproj", "fr.lproj", "Resources", "x.lproj"))
        #expect(names.names(of: german) == ["de.lproj", "DE.lproj"])
        #expect(names.names(of: LanguageTag("de-DE")!) == ["de-DE.lproj"])
        #expect(names.names(of: LanguageTag("fr")!) == ["fr.lproj"])
    }

    @Test func aLoneFolderIsServedWithoutAskingWhereOthersLead() {
        var names = LanguageFolderNames()
        names.rebuild(from: entries("de.lproj", "fr.lproj"))
        let decision = names.decide("de.lproj", language: german) { _ in
            Issue.record("a lone folder needs no look at the others")
            return true
        }
        #expect(decision.isServed && decision.clashToReport == nil)
        #expect(names.unserved.isEmpty)
    }

    @Test func aClashServesTheRulesFolderAndIsReportedOnceUntilItIsResolved() {
        var names = LanguageFolderNames()
        names.rebuild(from: entries("DE.lproj", "de.lproj"))
        let loser = names.decide("DE.lproj", language: german) { _ in true }
        #expect(!loser.isServed)
        #expect(loser.clashToReport?.served == "de.lproj")
        #expect(loser.clashToReport?.unserved == ["DE.lproj"])
        let winner = names.decide("de.lproj", language: german) { _ in true }
        #expect(winner.isServed)
        #expect(winner.clashToReport == nil, "the same clash is reported once")
        #expect(names.unserved == ["DE.lproj"])

        // The loser removed: the clash is over, and the winner's next decision reports nothing.
        let removed = names.note(InotifyEvent(watch: 1, mask: [.delete, .isDirectory], name: "DE.lproj"))
        #expect(removed, "its language had another folder")
        #expect(names.unserved.isEmpty)
        let alone = names.decide("de.lproj", language: german) { _ in true }
        #expect(alone.isServed && alone.clashToReport == nil)
        // Made again: the clash is reported again.
        let made = names.note(InotifyEvent(watch: 1, mask: [.create, .isDirectory], name: "DE.lproj"))
        #expect(made)
        let again = names.decide("DE.lproj", language: german) { _ in true }
        #expect(!again.isServed && again.clashToReport != nil)
    }

    @Test func aFolderLeadingNowhereHidesNoOther() {
        var names = LanguageFolderNames()
        names.rebuild(from: entries("DE.lproj", "de.lproj"))
        // `de.lproj` is a stale link: `DE.lproj`, though not the rule's pick, is served.
        let decision = names.decide("DE.lproj", language: german) { $0 != "de.lproj" }
        #expect(decision.isServed && decision.clashToReport == nil)
    }

    @Test func eventsOfOtherNamesOrKindsChangeNothing() {
        var names = LanguageFolderNames()
        names.rebuild(from: entries("de.lproj"))
        let file = names.note(InotifyEvent(watch: 1, mask: [.create], name: "notes.txt"))
        let attributes = names.note(InotifyEvent(watch: 1, mask: [.attrib, .isDirectory], name: "de.lproj"))
        let french = names.note(InotifyEvent(watch: 1, mask: [.create, .isDirectory], name: "fr.lproj"))
        #expect(!file && !attributes)
        #expect(!french, "a first folder of its language is in no clash")
        #expect(names.names(of: german) == ["de.lproj"])
        #expect(names.names(of: LanguageTag("fr")!) == ["fr.lproj"])
    }

    @Test func aListingForgetsTheUnservedFoldersItNoLongerHas() {
        var names = LanguageFolderNames()
        names.rebuild(from: entries("DE.lproj", "de.lproj"))
        _ = names.decide("DE.lproj", language: german) { _ in true }
        #expect(names.unserved == ["DE.lproj"])
        names.rebuild(from: entries("de.lproj"))
        #expect(names.unserved.isEmpty)
    }
}
