import Foundation
import HotStringsRelease
import HotStringsTestSupport
import LinuxSystem
import Testing

@Suite struct PublishTests {
    @Test func publishWritesContentAddressedFilesAndAManifest() throws {
        let fixture = try ReleaseFixture()
        let outcome = try Publisher().publish(bundle: fixture.source, to: fixture.output)
        #expect(!outcome.isUnchanged)
        #expect(outcome.manifest.files.count == 16)
        let manifest = try ReleaseManifest.decode(
            try FileSystem.readFile(atPath: fixture.output + "/manifest.json", maximumSize: 1 << 20))
        #expect(manifest == outcome.manifest)
        for file in manifest.files {
            let published = try FileSystem.readFile(atPath: fixture.output + "/files/" + file.sha256,
                                                    maximumSize: 1 << 20)
            let original = try FileSystem.readFile(atPath: fixture.source + "/" + file.path, maximumSize: 1 << 20)
            #expect(published == original)
            #expect(file.size == original.count)
        }
        #expect(FileManager.default.fileExists(atPath: fixture.output + "/releases/\(manifest.release).json"))
    }

    @Test func aChangedFileIsTheOnlyFileWrittenAgain() throws {
        let fixture = try ReleaseFixture()
        let first = try fixture.publish()
        let again = try Publisher().publish(bundle: fixture.source, to: fixture.output)
        #expect(again.isUnchanged)
        #expect(again.manifest.release == first)
        try fixture.sandbox.save("\"greeting\" = \"Servus\";\n", to: "de.lproj/Localizable.strings")
        let changed = try Publisher().publish(bundle: fixture.source, to: fixture.output)
        #expect(!changed.isUnchanged)
        #expect(changed.writtenFiles == 1)
        #expect(changed.manifest.release != first)
    }

    @Test func aTableThatDoesNotParseIsNotPublished() throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.save("\"a\" = \"b\";\n\"broken\" = \"x\"\n", to: "fr.lproj/Localizable.strings")
        #expect {
            try Publisher().publish(bundle: fixture.source, to: fixture.output)
        } throws: { error in
            guard case .invalidTable(let problem) = error as? ReleaseError else { return false }
            return problem.file == "fr.lproj/Localizable.strings" && problem.line == 3 && problem.column != nil
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }

    @Test func aRootCatalogIsPublishedButNotAHiddenOrBackupOne() throws {
        let fixture = try ReleaseFixture()
        let catalog = try fixture.sandbox.read("Settings.xcstrings")
        try fixture.sandbox.write(catalog, to: ".Hidden.xcstrings")
        try fixture.sandbox.write(catalog, to: "Settings.xcstrings~")
        let manifest = try Publisher().publish(bundle: fixture.source, to: fixture.output).manifest
        #expect(manifest.rootCatalogs == ["Settings.xcstrings"])
        #expect(!manifest.folders.contains("Settings.xcstrings"))
        let file = try #require(manifest.files.first { $0.path == "Settings.xcstrings" })
        let published = try FileSystem.readFile(atPath: fixture.output + "/files/" + file.sha256, maximumSize: 1 << 20)
        #expect(published == Array(catalog.utf8))
    }

    @Test(arguments: ["Settings.xcstrings", "de.lproj/Extra.xcstrings"])
    func aCatalogThatDoesNotParseIsNotPublished(path: String) throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.write("{\n  \"sourceLanguage\" : \"en\",\n  \"strings\" : { \"a\" \"b\" }\n}\n", to: path)
        #expect {
            try Publisher().publish(bundle: fixture.source, to: fixture.output)
        } throws: { error in
            guard case .invalidTable(let problem) = error as? ReleaseError else { return false }
            return problem.file == path && problem.line == 3 && problem.column == 21
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }

    @Test func theCommandRefusesLintErrorsWithTheirPlace() throws {
        let fixture = try ReleaseFixture()
        try fixture.sandbox.save("\"a\" = \"b\"\n", to: "fr.lproj/Localizable.strings")
        let run = try HotstringsProcess.run(["publish", fixture.source, fixture.output])
        #expect(run.code == 1)
        #expect(run.stderr.contains("fr.lproj/Localizable.strings:2:1: error:"), "\(run.stderr)")
        #expect(run.stderr.contains("nothing published"))
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
    }

    /// A release whose translations take format specifiers otherwise than the development language (the table
    /// every path is tested with, `SpecifierCases`) is refused, each error named; `--force` publishes it anyway,
    /// naming each again.
    @Test func theCommandRefusesSpecifierErrorsUnlessForced() throws {
        let fixture = try ReleaseFixture()
        for (path, text) in SpecifierCases.files(translated: true) { try fixture.sandbox.write(text, to: path) }
        let errors = SpecifierCases.all.flatMap { table in
            table.problems.filter { $0.severity == "error" }.map { "error: " + $0.message(key: table.key) }
        }
        let refused = try HotstringsProcess.run(["publish", fixture.source, fixture.output])
        #expect(refused.code == 1)
        for error in errors { #expect(refused.stderr.contains(error), "\(error)") }
        #expect(refused.stderr.contains("\(errors.count) errors, ")
            && refused.stderr.contains("; nothing published (--force publishes format specifier errors anyway)"),
                "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))

        let forced = try HotstringsProcess.run(["publish", "--force", fixture.source, fixture.output])
        #expect(forced.code == 0, "\(forced.stderr)")
        for error in errors { #expect(forced.stderr.contains(error), "\(error)") }
        #expect(forced.stderr.contains("warning: publishing with \(errors.count) format specifier errors named above "
            + "(--force)"), "\(forced.stderr)")
        #expect(FileManager.default.fileExists(atPath: fixture.output + "/manifest.json"))
        // Another error is not forced.
        try fixture.sandbox.save("\"a\" = \"b\"\n", to: "fr.lproj/Localizable.strings")
        #expect(try HotstringsProcess.run(["publish", "--force", fixture.source, fixture.output]).code == 1)
    }
}

@Suite struct ManifestTests {
    private func manifest(files: String, release: String = "r1", format: Int = 1) -> [UInt8] {
        Array(#"{"format": \#(format), "release": "\#(release)", "created": "now", "files": [\#(files)]}"#.utf8)
    }

    private let digest = String(repeating: "ab", count: 32)

    @Test func roundTrip() throws {
        let original = ReleaseManifest(release: "20261203T101500Z-0123456789ab", created: "2026-12-03T10:15:00Z",
                                       files: [.init(path: "de.lproj/Localizable.strings", size: 3, sha256: digest),
                                               .init(path: "Base.lproj/a \"q\".strings", size: 0, sha256: digest),
                                               .init(path: "Settings.xcstrings", size: 5, sha256: digest)])
        #expect(try ReleaseManifest.decode(original.json) == original)
    }

    @Test(arguments: [
        ("../etc/passwd", "is not <language>.lproj/<file>"),
        ("../x.xcstrings", "is not <language>.lproj/<file> or <table>.xcstrings"),
        ("a/b.xcstrings", "is not <language>.lproj/<file> or <table>.xcstrings"),
        (".x.xcstrings", "is not <language>.lproj/<file>"),
        (".xcstrings", "is not <language>.lproj/<file>"),
        ("x.xcstrings/", "is not <language>.lproj/<file>"),
        ("de.lproj/../../x", "is not <language>.lproj/<file>"),
        ("de.lproj/.hidden", "is not <language>.lproj/<file>"),
        ("/abs.lproj/x", "is not <language>.lproj/<file>"),
        ("de.lproj/sub/x.strings", "is not <language>.lproj/<file>"),
        ("Localizable.strings", "is not <language>.lproj/<file>"),
    ])
    func unsafePathsAreRefused(path: String, reason: String) {
        let bytes = manifest(files: #"{"path": "\#(path)", "size": 1, "sha256": "\#(digest)"}"#)
        #expect { try ReleaseManifest.decode(bytes) } throws: { "\($0)".contains(reason) }
    }

    @Test func badManifestsSayWhatIsWrong() {
        let cases: [([UInt8], String)] = [
            (Array("{\"format\": 1, ".utf8), "not JSON"),
            (manifest(files: "", format: 2), "format 2 is not supported"),
            (manifest(files: "", release: "../x"), "\"release\" must be"),
            (manifest(files: #"{"path": "de.lproj/a", "size": 1, "sha256": "ABC"}"#), "not 64 lowercase hex"),
            (manifest(files: #"{"path": "de.lproj/a", "size": 99999999999, "sha256": "\#(digest)"}"#), "over the cap"),
            (manifest(files: #"{"path": "de.lproj/a", "size": 1, "sha256": "\#(digest)"},"#
                + #"{"path": "de.lproj/a", "size": 1, "sha256": "\#(digest)"}"#), "listed twice"),
        ]
        for (bytes, reason) in cases {
            #expect { try ReleaseManifest.decode(bytes) } throws: { "\($0)".contains(reason) }
        }
    }
}
