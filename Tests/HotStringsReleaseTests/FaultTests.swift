import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

/// An origin that misbehaves: each fault leaves nothing installed and the old release served, and the pull
/// succeeds once the origin is fixed.
@Suite struct FaultOriginTests {
    static let cases: [(FaultOrigin.Fault, String, String)] = [
        (.truncated, "/files/", "remaining to read"),
        (.wrongBytes, "/files/", "SHA-256 mismatch: expected "),
        (.status500, "/files/", "HTTP status 500"),
        (.status503, "/manifest.json", "HTTP status 503"),
        (.reset, "/files/", "/files/"),
        (.stall, "/files/", "timed out"),
        (.redirectLoop, "/manifest.json", "redirect"),
        (.oversized, "/files/", "over the cap"),
        (.invalidJSON, "/manifest.json", "invalid manifest: not JSON"),
        (.missing, "/files/", "HTTP status 404"),
    ]

    @Test(arguments: cases)
    func faultInstallsNothingAndRecovers(fault: FaultOrigin.Fault, prefix: String, reason: String) throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        let puller = Puller(bundle: fixture.target, options: try fixture.options(origin.url))
        _ = try puller.pull()
        let second = try fixture.publishChange()
        try origin.setFault(fault, for: prefix)
        var message = ""
        #expect {
            try puller.pull()
        } throws: { error in
            message = "\(error)"
            return true
        }
        #expect(message.contains(reason), "\(fault): \(message)")
        #expect(fixture.currentRelease == first)
        #expect(try fixture.servesExactly(first))
        #expect(!fixture.targetEntries.contains { $0.hasPrefix("..tmp-") || $0 == "..r-\(second)" })
        try origin.setFault(nil, for: prefix)
        let recovered = try puller.pull()
        #expect(recovered.kind == .installed(previous: first))
        #expect(try fixture.servesExactly(second))
    }

    @Test func aTableThatDoesNotParseIsNotInstalledAndItsPlaceIsNamed() throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        let puller = Puller(bundle: fixture.target, options: try fixture.options(origin.url))
        _ = try puller.pull()
        // The pull parses every table before it installs.
        try fixture.publishBrokenFrenchTable()
        #expect {
            try puller.pull()
        } throws: { error in
            guard case .invalidTable(let problem) = error as? ReleaseError else { return false }
            return problem.file == "fr.lproj/Localizable.strings" && problem.line == 2 && problem.column == 7
        }
        #expect(fixture.currentRelease == first)
    }
}

/// A pull killed with SIGKILL at each step of the install leaves one whole release served, and the next pull
/// cleans up and installs.
@Suite struct CrashSafetyTests {
    @Test(arguments: InstallStep.allCases)
    func killedAtStep(step: InstallStep) throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        _ = try Puller(bundle: fixture.target, options: try fixture.options(origin.url)).pull()
        // The second release drops a language and a root catalog and adds one of each, so the link steps have
        // work to do.
        try FileSystem.removeRecursively(atPath: fixture.source + "/zh-Hans.lproj")
        try fixture.sandbox.write("\"greeting\" = \"Ciao\";\n", to: "it.lproj/Localizable.strings")
        try FileSystem.rename(fixture.source + "/Settings.xcstrings", to: fixture.source + "/Preferences.xcstrings")
        let second = try fixture.publish()
        let killed = try HotstringsProcess.run(
            ["pull", origin.url, fixture.target],
            environment: [InstallStep.environmentVariable: String(step.rawValue)])
        #expect(killed.code == 9, "step \(step): \(killed.stderr)")
        let expected = step.rawValue >= InstallStep.swapped.rawValue ? second : first
        #expect(fixture.currentRelease == expected)
        // Files whole; the language links may still be the old set between the swap and the unlink.
        let linksSettled = step.rawValue >= InstallStep.oldLanguagesUnlinked.rawValue
        if linksSettled || step.rawValue < InstallStep.languagesLinked.rawValue {
            #expect(try fixture.servesExactly(expected), "step \(step)")
        }
        let next = try HotstringsProcess.run(["pull", origin.url, fixture.target])
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try fixture.servesExactly(second))
        #expect(!fixture.targetEntries.contains { $0.hasPrefix("..tmp-") || $0 == "..data_tmp" },
                "\(fixture.targetEntries)")
    }

    /// The first release into an empty bundle links its languages while `..data` points at an empty folder: killed
    /// at any step, the bundle has that release or none, and the next pull installs it and removes the folder.
    @Test(arguments: InstallStep.allCases)
    func firstInstallKilledAtStep(step: InstallStep) throws {
        let fixture = try ReleaseFixture()
        try FileSystem.makeDirectory(atPath: fixture.output)
        let origin = try FaultOrigin(root: fixture.output)
        let first = try fixture.publish()
        let killed = try HotstringsProcess.run(
            ["pull", origin.url, fixture.target],
            environment: [InstallStep.environmentVariable: String(step.rawValue)])
        #expect(killed.code == 9, "step \(step): \(killed.stderr)")
        #expect(fixture.currentRelease == (step.rawValue >= InstallStep.swapped.rawValue ? first : nil))
        let next = try HotstringsProcess.run(["pull", origin.url, fixture.target])
        #expect(next.code == 0, "\(next.stderr)")
        #expect(try fixture.servesExactly(first))
        #expect(!fixture.targetEntries.contains { $0.hasPrefix("..tmp-") || $0 == "..data_tmp" },
                "\(fixture.targetEntries)")
        // The empty folder stays until the next pull's clean-up (a watcher may have just read `..data`).
        #expect(try HotstringsProcess.run(["pull", origin.url, fixture.target]).code == 0)
        #expect(!fixture.targetEntries.contains("...empty"), "\(fixture.targetEntries)")
    }
}
