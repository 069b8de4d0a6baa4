import StringsFormat
import Testing
@testable import BundleWatcher

/// `FolderIndex`: the watched directories and what each is, kept in step without inotify (the watch loop's tests
/// drive it over real watches).
@Suite struct FolderIndexTests {
    let german = LanguageTag("de")!
    let french = LanguageTag("fr")!
    let here = DirectoryIdentity(device: 1, inode: 10)
    let there = DirectoryIdentity(device: 1, inode: 11)

    @Test func aLanguageFolderIsFoundByItsWatchNameAndLanguageAndForgottenWithItsWatch() {
        var index = FolderIndex()
        index.watchRoot(1)
        index.watchFolder("de.lproj", watch: 2, language: german, target: here)
        index.watchFolder("fr.lproj", watch: 3, language: french, target: nil)
        #expect(index.isRootWatched)
        #expect(index.watchCount == 3)
        #expect(index[watch: 1] == .root)
        #expect(index[watch: 2] == .folder("de.lproj"))
        #expect(index.languageFolders["de.lproj"]
            == FolderIndex.LanguageFolder(watch: 2, language: german, target: here))
        #expect(index.languageFolders["fr.lproj"]?.target == nil)
        #expect(index.folders(of: german) == ["de.lproj"])

        index.forget(watch: 2)
        #expect(index[watch: 2] == nil)
        #expect(index.languageFolders["de.lproj"] == nil)
        #expect(index.folders(of: german).isEmpty)
        #expect(index.folders(of: french) == ["fr.lproj"])
        #expect(index.watchCount == 2)
    }

    @Test func twoFoldersOfOneLanguageStayIndexedUntilTheLastIsForgotten() {
        var index = FolderIndex()
        index.watchFolder("de.lproj", watch: 2, language: german, target: here)
        index.watchFolder("DE.lproj", watch: 3, language: german, target: there)
        #expect(index.folders(of: german) == ["de.lproj", "DE.lproj"])
        index.forget(watch: 3)
        #expect(index.folders(of: german) == ["de.lproj"])
        index.forget(watch: 2)
        #expect(index.folders(of: german).isEmpty)
        #expect(index.languageFolders.isEmpty && index.watchCount == 0)
    }

    /// The kernel gives a directory one watch: a second path to it takes the watch over, and forgetting the watch
    /// forgets that path only; the first keeps its entry (its watch went with the other's).
    @Test func aWatchTakenOverByAnotherPathForgetsOnlyThatPath() {
        var index = FolderIndex()
        index.watchFolder("de.lproj", watch: 2, language: german, target: here)
        index.watchFolder("de-DE.lproj", watch: 2, language: german, target: here)
        #expect(index[watch: 2] == .folder("de-DE.lproj"))
        index.forget(watch: 2)
        #expect(index.languageFolders["de-DE.lproj"] == nil)
        #expect(index.languageFolders["de.lproj"]?.watch == 2)
        #expect(index.folders(of: german) == ["de.lproj"])
        #expect(index[watch: 2] == nil)
    }

    @Test func aLanguageFolderTakesOverTheWatchOfASearchedFolderItLinksTo() {
        var index = FolderIndex()
        let searched = index.watchSubfolder("Resources/de", watch: 5)
        #expect(searched == .searched(replacing: nil))
        #expect(index.subfolders == ["Resources/de": 5])
        index.watchFolder("de.lproj", watch: 5, language: german, target: here)
        #expect(index.subfolders.isEmpty, "dropping the search must not remove the language folder's watch")
        #expect(index[watch: 5] == .folder("de.lproj"))
    }

    @Test func aSearchedFolderIsNotSearchedWhereTheRootOrALanguageFolderIs() {
        var index = FolderIndex()
        index.watchRoot(1)
        index.watchFolder("de.lproj", watch: 2, language: german, target: here)
        index.watchParent(3)
        for watch: Int32 in [1, 2, 3] {
            let mounted = index.watchSubfolder("Mounted", watch: watch)
            #expect(mounted == .watchedAlready)
        }
        #expect(index.subfolders.isEmpty)
        #expect(index[watch: 2] == .folder("de.lproj"))
    }

    @Test func aSearchedFolderRenamedUnseenIsIndexedUnderItsNewPath() {
        var index = FolderIndex()
        _ = index.watchSubfolder("Old", watch: 7)
        let renamed = index.watchSubfolder("New", watch: 7)
        #expect(renamed == .searched(replacing: nil))
        #expect(index.subfolders == ["New": 7])
        #expect(index[watch: 7] == .subfolder("New"))
    }

    @Test func aSearchedPathLeadingToAnotherDirectoryGivesUpItsOldWatch() {
        var index = FolderIndex()
        _ = index.watchSubfolder("Resources", watch: 7)
        let elsewhere = index.watchSubfolder("Resources", watch: 8)
        #expect(elsewhere == .searched(replacing: 7))
        #expect(index[watch: 7] == nil)
        #expect(index.subfolders == ["Resources": 8])
        // The same watch again: nothing replaced.
        let again = index.watchSubfolder("Resources", watch: 8)
        #expect(again == .searched(replacing: nil))
    }

    @Test func aRemovalIsNotedOnceUntilTheFolderIsWatchedAgain() {
        var index = FolderIndex()
        let first = index.noteRemoval(of: "de.lproj")
        let second = index.noteRemoval(of: "de.lproj")
        #expect(first && !second)
        index.watchFolder("de.lproj", watch: 2, language: german, target: here)
        let afterWatch = index.noteRemoval(of: "de.lproj")
        #expect(afterWatch, "watched again, its next removal is noted again")
        index.forgetNotedRemovals()
        let afterScan = index.noteRemoval(of: "de.lproj")
        #expect(afterScan)
    }

    @Test func theParentsWatchesAreForgottenAndReturnedWhenTheRootIsBack() {
        var index = FolderIndex()
        index.watchParent(9)
        let searched = index.watchSubfolder("Resources", watch: 4)
        #expect(searched == .searched(replacing: nil))
        #expect(!index.isRootWatched)
        let parents = index.forgetParentWatches()
        #expect(parents == [9])
        #expect(index[watch: 9] == nil)
        #expect(index.watches == [4])
        let none = index.forgetParentWatches()
        #expect(none.isEmpty)
    }
}
