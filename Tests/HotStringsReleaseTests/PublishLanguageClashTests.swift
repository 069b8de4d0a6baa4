import Foundation
import HotStringsRelease
import Testing

/// `publish` refuses a bundle with two folders of one language (`de.lproj` and `DE.lproj`): every machine that
/// pulled it would serve one and never the other's keys (issue 20, finding 12).
@Suite struct PublishLanguageClashTests {
    @Test(arguments: ["DE.lproj", "German.lproj"])
    func twoFoldersOfOneLanguageAreRefusedNamingBoth(_ other: String) throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.write("\"only.here\" = \"x\";\n", to: "\(other)/Localizable.strings")
        #expect {
            try Publisher().publish(bundle: fixture.source, to: fixture.output)
        } throws: { error in
            guard case .invalidTable(let problem) = error as? ReleaseError else { return false }
            return problem.file == other && problem.message.contains("'de.lproj'")
                && problem.message.contains("'\(other)'") && problem.message.contains("only 'de.lproj' is served")
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }

    @Test func anEmptyFolderOfTheSameLanguageIsNoClash() throws {
        let fixture = try ReleaseFixture()
        try FileManager.default.createDirectory(atPath: fixture.source + "/DE.lproj", withIntermediateDirectories: true)
        _ = try Publisher().publish(bundle: fixture.source, to: fixture.output)
    }
}
