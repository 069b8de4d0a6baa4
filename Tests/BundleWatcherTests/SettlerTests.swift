import Testing
@testable import BundleWatcher

@Suite struct SettlerTests {
    let start = ContinuousClock.now
    let configuration = SettleTiming(
        batchWindow: .milliseconds(2), settleTime: .milliseconds(50), maximumDelay: .milliseconds(20)
    )

    func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }

    @Test func aFinishedWriteIsDueAfterTheBatchWindow() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.finished, to: "a", at: at(0))
        #expect(settler.nextDeadline == at(2))
        #expect(settler.takeDue(at: at(1)).isEmpty)
        #expect(settler.takeDue(at: at(2)) == ["a"])
        #expect(settler.isIdle && settler.nextDeadline == nil)
    }

    @Test func aBulkSaveIsOneBatch() {
        var settler = Settler<String>(configuration: configuration)
        for (index, path) in ["a", "b", "c", "d"].enumerated() { settler.note(.finished, to: path, at: at(index)) }
        #expect(settler.takeDue(at: at(4)).isEmpty)
        #expect(settler.takeDue(at: at(5)) == ["a", "b", "c", "d"])
    }

    @Test func aSteadyStreamOfWritesIsCutAtTheMaximumDelay() {
        var settler = Settler<String>(configuration: configuration)
        for millisecond in 0..<30 { settler.note(.finished, to: "f\(millisecond)", at: at(millisecond)) }
        // The batch opened at 0 must close by 20 even though writes kept coming.
        #expect(settler.nextDeadline == at(20))
        #expect(settler.takeDue(at: at(20)).count == 30)
    }

    @Test func aModifiedFileWaitsUntilQuiet() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.modified, to: "a", at: at(0))
        settler.note(.modified, to: "a", at: at(30))
        #expect(settler.takeDue(at: at(50)).isEmpty)
        #expect(settler.nextDeadline == at(80))
        #expect(settler.takeDue(at: at(80)) == ["a"])
    }

    @Test func aCloseAfterModificationsIsDueAtOnce() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.modified, to: "a", at: at(0))
        settler.note(.finished, to: "a", at: at(1))
        #expect(settler.takeDue(at: at(3)) == ["a"])
    }

    @Test func aRemovalWaitsForTheSettleTimeAndARecreationCancelsTheWait() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.removed, to: "gone", at: at(0))
        settler.note(.removed, to: "back", at: at(0))
        settler.note(.finished, to: "back", at: at(1))
        #expect(settler.takeDue(at: at(3)) == ["back"])
        #expect(settler.takeDue(at: at(49)).isEmpty)
        #expect(settler.takeDue(at: at(50)) == ["gone"])
    }

    @Test func pathsDueWithinTheWindowJoinTheBatch() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.removed, to: "r", at: at(0))
        settler.note(.finished, to: "w", at: at(49))
        #expect(settler.takeDue(at: at(51)) == ["r", "w"])
    }

    @Test func resetForgetsEverything() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.finished, to: "a", at: at(0))
        settler.note(.removed, to: "b", at: at(0))
        #expect(settler.pendingCount == 2)
        settler.reset()
        #expect(settler.isIdle && settler.nextDeadline == nil && settler.takeDue(at: at(100)).isEmpty)
    }

    @Test func theKeyThatOpensABatchIsOfferedOnceAndTakenClosesIt() {
        var settler = Settler<String>(configuration: configuration)
        settler.note(.removed, to: "other", at: at(0))
        settler.note(.finished, to: "a", at: at(0))
        settler.note(.finished, to: "a", at: at(0))
        #expect(settler.takeOffer(at: at(1)) == "a")
        #expect(settler.takeOffer(at: at(1)) == nil, "offered once")
        settler.take("a")
        #expect(settler.pendingCount == 1 && settler.nextDeadline == at(50), "the batch is closed; the removal waits")
        // The next finished write opens a new batch, offered again.
        settler.note(.finished, to: "b", at: at(3))
        #expect(settler.takeOffer(at: at(3)) == "b")
    }

    @Test func noOfferForABatchOfSeveralKeysOrAfterAnotherEventOrOnceDue() {
        var two = Settler<String>(configuration: configuration)
        two.note(.finished, to: "a", at: at(0))
        two.note(.finished, to: "b", at: at(0))
        #expect(two.takeOffer(at: at(0)) == nil)
        #expect(two.takeDue(at: at(2)) == ["a", "b"])

        var withdrawn = Settler<String>(configuration: configuration)
        withdrawn.note(.finished, to: "a", at: at(0))
        withdrawn.withdrawOffer()
        #expect(withdrawn.takeOffer(at: at(0)) == nil)

        var removal = Settler<String>(configuration: configuration)
        removal.note(.finished, to: "a", at: at(0))
        removal.note(.finished, to: "a", at: at(0))
        removal.note(.removed, to: "b", at: at(0))
        #expect(removal.takeOffer(at: at(0)) == nil, "the same finished write keeps it, another key's removal not")

        var rewritten = Settler<String>(configuration: configuration)
        rewritten.note(.finished, to: "a", at: at(0))
        rewritten.note(.modified, to: "a", at: at(0))
        #expect(rewritten.takeOffer(at: at(0)) == nil, "written again: it waits until quiet")

        var due = Settler<String>(configuration: configuration)
        due.note(.finished, to: "a", at: at(0))
        #expect(due.takeOffer(at: at(2)) == nil, "the window is over: the batch is read as usual")
        #expect(due.takeDue(at: at(2)) == ["a"])
    }

    @Test func anotherFileMadeWhileABatchIsOpenHoldsItUntilItIsGone() {
        var settler = Settler<String>(configuration: configuration)
        settler.noteOtherFile(".before.tmp", isMade: true, at: at(0))
        settler.note(.finished, to: "a", at: at(0))
        #expect(settler.nextDeadline == at(2), "a file made before the batch opened holds nothing")
        settler.noteOtherFile(".b.tmp", isMade: true, at: at(1))
        #expect(settler.nextDeadline == at(20), "the next file under way: up to the maximum delay")
        #expect(settler.takeDue(at: at(10)).isEmpty, "not due while the writer is descheduled in its next file")
        settler.noteOtherFile(".b.tmp", isMade: false, at: at(10))
        settler.note(.finished, to: "b", at: at(10))
        #expect(settler.nextDeadline == at(12))
        #expect(settler.takeDue(at: at(12)) == ["a", "b"])

        var removed = Settler<String>(configuration: configuration)
        removed.note(.finished, to: "a", at: at(0))
        removed.noteOtherFile(".b.tmp", isMade: true, at: at(1))
        removed.noteOtherFile(".b.tmp", isMade: false, at: at(5))
        #expect(removed.nextDeadline == at(7), "removed: a window from its removal")
        #expect(removed.takeDue(at: at(7)) == ["a"])

        var leftBehind = Settler<String>(configuration: configuration)
        leftBehind.note(.finished, to: "a", at: at(0))
        leftBehind.noteOtherFile(".left.tmp", isMade: true, at: at(1))
        #expect(leftBehind.takeDue(at: at(19)).isEmpty)
        #expect(leftBehind.takeDue(at: at(20)) == ["a"], "a file left behind holds its batch to the maximum delay")
        leftBehind.note(.finished, to: "b", at: at(30))
        #expect(leftBehind.nextDeadline == at(32), "and no later batch")
    }

    @Test func whileAToolIsWritingBatchesWaitLongerAndNothingIsOffered() {
        let timing = SettleTiming(batchWindow: .milliseconds(2), maximumDelay: .milliseconds(100))
        #expect(timing.toolBatchWindow == .milliseconds(40))
        #expect(SettleTiming().toolBatchWindow == .milliseconds(10))
        #expect(configuration.toolBatchWindow == .milliseconds(20), "at most the maximum delay")
        var settler = Settler<String>(configuration: timing)
        settler.noteToolWriting(at: at(0))
        #expect(settler.isToolWriting(at: at(999)) && !settler.isToolWriting(at: at(1000)))
        settler.note(.finished, to: "a", at: at(5))
        #expect(settler.nextDeadline == at(45))
        #expect(settler.takeDue(at: at(44)).isEmpty)
        settler.note(.finished, to: "b", at: at(44))
        #expect(settler.takeDue(at: at(84)) == ["a", "b"])
        settler.note(.finished, to: "c", at: at(1000))
        #expect(settler.nextDeadline == at(1002), "the tool is done: the usual window")
    }

    /// After a tool's batch of several tables, one table settling alone twice in a row (an editor saving it again and
    /// again) ends the hold: its next save is offered for a read ahead and waits the usual window. Different tables
    /// alone, one each (a tool pausing between its files), and a key due on its own (a retried read) keep it.
    @Test func oneTableSettlingAloneTwiceInARowEndsTheHold() {
        let timing = SettleTiming(batchWindow: .milliseconds(2), maximumDelay: .milliseconds(100))
        var settler = Settler<String>(configuration: timing)
        /// A finished write of `key` alone at `start`, taken when due: 40 ms later (the tool's window) or 2 ms.
        func save(_ key: String, at start: Int) -> [String] {
            settler.note(.finished, to: key, at: at(start))
            return settler.takeDue(at: settler.nextDeadline ?? at(start))
        }
        settler.noteToolWriting(at: at(0))
        for (index, key) in ["a", "b", "a", "c"].enumerated() {
            #expect(save(key, at: 10 + 50 * index) == [key])
            #expect(settler.isToolWriting(at: at(60 + 50 * index)), "\(key): another table than the one before")
        }
        settler.retry("c", after: .milliseconds(5), at: at(250))
        #expect(settler.takeDue(at: at(255)) == ["c"])
        #expect(settler.isToolWriting(at: at(255)), "a retried read is no save")
        #expect(save("c", at: 260) == ["c"])
        #expect(!settler.isToolWriting(at: at(300)), "c alone twice in a row")
        settler.note(.finished, to: "c", at: at(300))
        #expect(settler.nextDeadline == at(302), "the usual window")
        #expect(settler.takeOffer(at: at(300)) == "c", "read ahead")
        settler.take("c")

        // A batch of several tables holds the read ahead again, and a lone table before it does not count.
        #expect(save("d", at: 400) == ["d"])
        settler.noteToolWriting(at: at(410))
        #expect(save("d", at: 420) == ["d"])
        #expect(settler.isToolWriting(at: at(470)), "d once since the tool's batch")
        #expect(save("d", at: 470) == ["d"])
        #expect(!settler.isToolWriting(at: at(520)))
    }
}

/// The names themselves are decided by `BundleNames` (BundleNamesTests in HotStringsServiceTests).
@Suite struct BundleLayoutTests {
    @Test func symlinkSwapNames() {
        #expect(BundleLayout.isSymlinkSwap("..data"))
        #expect(BundleLayout.isSymlinkSwap("..data_tmp"))
        #expect(!BundleLayout.isSymlinkSwap("Localizable.strings"))
    }
}
