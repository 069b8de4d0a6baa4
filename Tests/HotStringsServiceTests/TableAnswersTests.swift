@testable import HotStringsService
import Testing

/// The kept `table` answers: bounded, and dropped as soon as the store moves on (issue 21).
struct TableAnswersTests {
    typealias Key = TableAnswers<String>.Key

    @Test func anAnswerIsKeptForItsPositionOnly() {
        var kept = TableAnswers<String>()
        kept.keep("a at 5", for: Key(language: "de", table: "L", seq: 5), size: 6)
        #expect(kept.answer(for: Key(language: "de", table: "L", seq: 5)) == "a at 5")
        #expect(kept.answer(for: Key(language: "de", table: "M", seq: 5)) == nil)
        #expect(kept.answer(for: Key(language: "de", table: "L", seq: 6)) == nil)
        #expect(kept.count == 0, "a look at a new position drops the old answers")
    }

    @Test func theCountAndTheBytesAreCapped() {
        var kept = TableAnswers<String>(maximumCount: 2, maximumBytes: 10)
        kept.keep("1", for: Key(language: "a", table: "T", seq: 1), size: 4)
        kept.keep("2", for: Key(language: "b", table: "T", seq: 1), size: 4)
        #expect(kept.count == 2)
        kept.keep("3", for: Key(language: "c", table: "T", seq: 1), size: 4)
        #expect(kept.count == 1 && kept.answer(for: Key(language: "c", table: "T", seq: 1)) == "3")
        kept.keep("big", for: Key(language: "d", table: "T", seq: 1), size: 11)
        #expect(kept.answer(for: Key(language: "d", table: "T", seq: 1)) == nil, "over the byte cap alone")
        kept.keep("4", for: Key(language: "e", table: "T", seq: 1), size: 7)
        #expect(kept.count == 1, "4 + 7 bytes pass the cap of 10: the earlier answer made room")
        kept.keep("4'", for: Key(language: "e", table: "T", seq: 1), size: 7)
        kept.keep("5", for: Key(language: "f", table: "T", seq: 1), size: 3)
        #expect(kept.count == 2, "a replaced answer's bytes are not counted twice")
    }
}
