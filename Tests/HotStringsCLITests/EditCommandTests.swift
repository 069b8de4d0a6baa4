import Foundation
import HotStringsTestSupport
import StringsFormat
import Testing

/// `set` and `remove` with `--bundle`, on the files directly (the daemon's path is in SetEndToEndTests).
struct EditCommandTests {
    /// A copy of the sample bundle, whose English table is UTF-16 with a byte order mark.
    private func withSampleBundle<T>(_ body: (String) throws -> T) throws -> T {
        let root = try FileManager.default.url(for: .itemReplacementDirectory, in: .userDomainMask,
                                               appropriateFor: FileManager.default.temporaryDirectory, create: true)
            .appendingPathComponent("bundle").path
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: root)
        defer { try? FileManager.default.removeItem(atPath: (root as NSString).deletingLastPathComponent) }
        return try body(root)
    }

    @Test func aSetOnAUTF16FileKeepsItUTF16() throws {
        try withSampleBundle { bundle in
            let path = bundle + "/en.lproj/Localizable.strings"
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            try #require(before.starts(with: [0xFF, 0xFE]))
            let result = run(["set", "greeting", "Hi \"there\" ✨", "--language", "en", "--bundle", bundle])
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout == "en.lproj/Localizable.strings\n")
            let after = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(after.starts(with: [0xFF, 0xFE]))
            #expect(try StringsFile.parse(Array(after))["greeting"] == "Hi \"there\" ✨")
            var expected = try StringsFile.parse(Array(before)).dictionary
            expected["greeting"] = "Hi \"there\" ✨"
            #expect(try StringsFile.parse(Array(after)).dictionary == expected)
        }
    }

    @Test func refusalsExitOneWithNothingWritten() throws {
        try withSampleBundle { bundle in
            let path = bundle + "/de.lproj/Localizable.strings"
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            for arguments in [
                ["set", "", "x", "--language", "de"],
                ["set", "k", "x", "--language", "xx"],
                ["set", "profile.online", "%d", "--language", "de"],
                ["set", "k", "x", "--language", "de", "--table", "../de.lproj/Localizable"],
                ["remove", "no.such.key", "--language", "de"],
            ] {
                let result = run(arguments + ["--bundle", bundle])
                #expect(result.code == 1, "\(arguments)")
                #expect(result.stderr.contains("error:"), "\(arguments)")
                #expect(result.stdout.isEmpty)
            }
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
            let forced = run(["set", "profile.online", "%d", "--language", "de", "--force", "--bundle", bundle])
            #expect(forced.code == 0)
        }
    }

    /// A new language's folder is made only for a value that is written: one refused for its format specifiers, or
    /// for a pseudo-language (never written here: a daemon serving them with --pseudo-languages makes them), leaves
    /// no folder behind.
    @Test func aRefusedNewLanguageLeavesNoFolder() throws {
        try withSampleBundle { bundle in
            for (arguments, reason) in [
                (["set", "profile.online", "%d ist online", "--language", "ko"], "takes argument 1 as an integer"),
                (["set", "greeting", "Hi", "--language", "en-XA"], "is a pseudo-language, made from 'en'"),
                (["set", "greeting", "Hi", "--language", "ar-XB"], "is a pseudo-language, made from 'en'"),
            ] {
                let result = run(arguments + ["--create-language", "--bundle", bundle])
                #expect(result.code == 1, "\(arguments)")
                #expect(result.stderr.contains(reason), "\(arguments): \(result.stderr)")
                let folder = bundle + "/" + arguments[4] + ".lproj"
                #expect(!FileManager.default.fileExists(atPath: folder), "\(arguments) left \(folder)")
            }
            let accepted = run(["set", "profile.online", "%@ ist online", "--language", "ko", "--create-language",
                                "--bundle", bundle])
            #expect(accepted.code == 0, "\(accepted.stderr)")
            #expect(accepted.stdout == "ko.lproj/Localizable.strings\n")
        }
    }

    @Test func removeTakesTheKeyAndUsageIsChecked() throws {
        try withSampleBundle { bundle in
            let result = run(["remove", "greeting", "--language", "de", "--bundle", bundle])
            #expect(result.code == 0)
            #expect(result.stdout == "de.lproj/Localizable.strings\n")
            #expect(run(["set", "k", "--language", "de", "--bundle", bundle]).code == 64)
            #expect(run(["set", "k", "v", "--bundle", bundle]).code == 64)
            #expect(run(["set", "k", "v", "--language", "de", "--variable", "n", "--bundle", bundle]).code == 64)
            #expect(run(["set", "--help"]).stdout.contains("--create-language"))
        }
    }

    @Test func aPluralFormIsSetInTheStringsdict() throws {
        try withSampleBundle { bundle in
            let result = run(["set", "items.count", "%d Sachen", "--language", "de", "--form", "other",
                              "--bundle", bundle])
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout == "de.lproj/Localizable.stringsdict\n")
            let path = bundle + "/de.lproj/Localizable.stringsdict"
            let rules = try StringsdictFile.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
            guard case .plural(_, let forms)? = rules["items.count"]?.variables["items"] else {
                Issue.record("no plural variable")
                return
            }
            #expect(forms[.other] == "%d Sachen")
            // A form whose specifiers differ from English's entry is refused; a plain set of a plural key too.
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(run(["set", "items.count", "%@ Sachen", "--language", "de", "--form", "other",
                         "--bundle", bundle]).code == 1)
            #expect(run(["set", "items.count", "Sachen", "--language", "de", "--bundle", bundle]).code == 1)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        }
    }

    @Test func aDevicesTextIsSetInTheCatalog() throws {
        try withSampleBundle { bundle in
            let path = bundle + "/Settings.xcstrings"
            let before = try String(contentsOfFile: path, encoding: .utf8)
            let result = run(["set", "Tap to continue", "Klick, um fortzufahren", "--language", "de", "--table",
                              "Settings", "--device", "mac", "--bundle", bundle])
            #expect(result.code == 0, "\(result.stderr)")
            #expect(result.stdout == "Settings.xcstrings\n")
            let after = try String(contentsOfFile: path, encoding: .utf8)
            #expect(after == (before.hasSuffix("\n") ? String(before.dropLast()) : before).replacingOccurrences(
                of: #""value" : "Klicken, um fortzufahren""#, with: #""value" : "Klick, um fortzufahren""#))
            // A device's text is judged against English's on that device: `Click to continue` takes no argument and
            // is no format, so a `%@` is a warning (lint's, the page's), and written.
            let written = run(["set", "Tap to continue", "%@ klicken", "--language", "de", "--table", "Settings",
                               "--device", "mac", "--bundle", bundle])
            #expect(written.code == 0, "\(written.stderr)")
            #expect(try String(contentsOfFile: path, encoding: .utf8).contains(#""value" : "%@ klicken""#))
        }
    }
}
