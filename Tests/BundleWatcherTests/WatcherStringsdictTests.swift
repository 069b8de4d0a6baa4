import BundleChanges
import StringsFormat
import Testing
@testable import BundleWatcher

/// `.stringsdict` files are table files like `.strings`: read on the first scan and on every save, a broken one an
/// error at its line and column.
@Suite struct WatcherStringsdictTests {
    static func rules(_ one: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n<dict>\n"
            + "<key>files</key><dict><key>NSStringLocalizedFormatKey</key><string>%#@n@</string>"
            + "<key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>"
            + "<key>one</key><string>\(one)</string><key>other</key><string>%d files</string></dict></dict>\n"
            + "</dict>\n</plist>\n"
    }

    static let path = "en.lproj/Localizable.stringsdict"

    /// The `one` form of `files` in the batch's update of the `.stringsdict`, if it parsed.
    static func one(in batch: ChangeBatch) -> String? {
        guard let update = batch.updates.last(where: { $0.file == path }),
              case .parsed(let content) = update.content,
              case .plural(_, let forms)? = content.rules["files"]?.variables["n"] else { return nil }
        return forms[.one]
    }

    @Test func aStringsdictIsReadOnTheScanAndOnEverySave() throws {
        var files = TestBundle.standardFiles
        files[Self.path] = Self.rules("%d file")
        let session = try WatchSession(files: files)
        #expect(Self.one(in: session.initial) == "%d file")
        let update = try #require(session.initial.updates.first { $0.file == Self.path })
        #expect(update.id.table == "Localizable" && update.id.language.identifier == "en")

        let start = session.log.all.count
        try session.bundle.save(Self.path, Self.rules("one file"))
        let index = try session.log.waitForBatch(from: start, "the saved .stringsdict") { Self.one(in: $0) != nil }
        #expect(Self.one(in: session.log.all[index]) == "one file")

        let broken = session.log.all.count
        try session.bundle.save(Self.path, Self.rules("x").replacingOccurrences(of: "</plist>", with: ""))
        let failed = try session.log.waitForBatch(from: broken, "the broken .stringsdict") { batch in
            batch.seen[Self.path]?.problem != nil
        }
        let problem = try #require(session.log.all[failed].seen[Self.path]?.problem)
        #expect(problem.file == Self.path && problem.line != nil && problem.column != nil)
    }
}
