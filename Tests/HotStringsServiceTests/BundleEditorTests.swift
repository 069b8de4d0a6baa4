import Foundation
import HotStringsProtocol
import HotStringsService
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Synchronization
import Testing

/// A bundle in a temporary folder (or on a given mount), removed afterwards.
final class EditedBundle {
    let root: String
    private let removesRoot: Bool

    init(_ files: [String: String], in root: String? = nil) throws {
        if let root {
            self.root = root
            removesRoot = false
        } else {
            self.root = try FileSystem.makeTemporaryDirectory(prefix: "hs-edit")
            removesRoot = true
        }
        for (path, text) in files { try write(text, to: path) }
    }

    deinit {
        if removesRoot { try? FileSystem.removeRecursively(atPath: root) }
    }

    func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: root + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// Every file below the root with its bytes: what "nothing written" compares.
    func contents() throws -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory) else { continue }
            let url = URL(fileURLWithPath: root + "/" + path)
            result[path] = isDirectory.boolValue ? Data() : try Data(contentsOf: url)
        }
        return result
    }

    func editor(developmentLanguage: String = "en") throws -> BundleEditor {
        try BundleEditor(root: root, developmentLanguage: LanguageTag(developmentLanguage)!)
    }

    func set(_ key: String, _ value: String, language: String = "de", table: String = "Localizable") throws -> String {
        try editor().apply(.init(key: key, language: language, table: table, change: .value(value, comment: nil)))
    }
}

let sampleFiles = [
    "en.lproj/Localizable.strings": "\"greeting\" = \"Hello\";\n\"count\" = \"%d files\";\n",
    "de.lproj/Localizable.strings": "\"greeting\" = \"Hallo\";\n\"count\" = \"%d Dateien\";\n",
]

/// A tmpfs of a few kilobytes mounted at a new folder for the test.
final class SmallDisk {
    struct CannotMount: Error {
        var reason: String
    }

    let path: String

    private init(size: String) throws {
        path = try FileSystem.makeTemporaryDirectory(prefix: "hs-tmpfs")
        let run = try ProcessRun.tool("/usr/bin/mount", ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path],
                                      mergingErrors: true, timeout: .seconds(20))
        guard run.code == 0 else {
            try? FileSystem.removeDirectory(atPath: path)
            throw CannotMount(reason: run.stdout)
        }
    }

    /// A disk of `size`, or the test is cancelled saying why none can be mounted (mounting needs root).
    static func mounted(size: String) throws -> SmallDisk {
        do {
            return try SmallDisk(size: size)
        } catch let error as CannotMount {
            try Test.cancel("cannot mount a tmpfs (needs root): \(error.reason)")
        }
    }

    func remountReadOnly() throws {
        let run = try ProcessRun.tool("/usr/bin/mount", ["-o", "remount,ro", path], mergingErrors: true)
        try #require(run.code == 0, "remount read-only: \(run.stdout)")
    }

    deinit {
        _ = try? ProcessRun.tool("/usr/bin/umount", [path], mergingErrors: true, timeout: .seconds(20))
        try? FileSystem.removeDirectory(atPath: path)
    }
}

@Suite struct BundleEditorTests {
    @Test func aValueIsWrittenWhereTheLanguageServesTheKey() throws {
        let bundle = try EditedBundle(sampleFiles)
        #expect(try bundle.set("greeting", "Servus") == "de.lproj/Localizable.strings")
        #expect(try StringsFile.parse(Array(bundle.read("de.lproj/Localizable.strings").utf8))["greeting"] == "Servus")
        #expect(try bundle.read("en.lproj/Localizable.strings") == sampleFiles["en.lproj/Localizable.strings"])
    }

    @Test func modeIsKept() throws {
        let bundle = try EditedBundle(sampleFiles)
        try FileSystem.setPermissions(0o640, atPath: bundle.root + "/de.lproj/Localizable.strings")
        _ = try bundle.set("greeting", "Servus")
        #expect(try FileSystem.status(atPath: bundle.root + "/de.lproj/Localizable.strings").permissions == 0o640)
    }

    @Test func aKeyOnlyInACatalogIsSetThereAndANewKeyGoesToTheFolder() throws {
        let catalog = """
            {"sourceLanguage":"en","strings":{"title":{"localizations":{"de":{"stringUnit":{"state":"translated",\
            "value":"Titel"}}}}},"version":"1.0"}
            """
        var files = sampleFiles
        files["Localizable.xcstrings"] = catalog
        files["Settings.xcstrings"] = catalog
        let bundle = try EditedBundle(files)
        #expect(try bundle.set("title", "Überschrift") == "Localizable.xcstrings")
        #expect(try bundle.set("brand.new", "Neu") == "de.lproj/Localizable.strings")
        // A table served only by a catalog keeps its new keys there.
        #expect(try bundle.set("brand.new", "Neu", table: "Settings") == "Settings.xcstrings")
        let edited = try StringCatalog.parse(Array(bundle.read("Localizable.xcstrings").utf8))
        #expect(edited.entries.first { $0.key == "title" }?.localizations["de"]?.stringUnit?.value == "Überschrift")
    }

    @Test(arguments: [
        ("", "x", "Localizable", "de", "empty"),
        ("a\u{0}b", "x", "Localizable", "de", "NUL"),
        ("k", "x\u{0}", "Localizable", "de", "NUL"),
        ("k", "x", "Localizable", "xx", "no language"),
        ("count", "%@ Dateien", "Localizable", "de", "'count': '%@' takes argument 1 as an object, where en's '%d' "
            + "takes an integer (--force writes it anyway)"),
        ("k", "x", "..", "de", "no table name"),
        ("k", "x", "../en.lproj/Localizable", "de", "no table name"),
        ("k", "x", "/etc/passwd", "de", "no table name"),
        ("k", "x", ".hidden", "de", "no table name"),
    ])
    func badInputIsRefusedWithNothingWritten(key: String, value: String, table: String, language: String,
                                             message: String) throws {
        let bundle = try EditedBundle(sampleFiles)
        let before = try bundle.contents()
        #expect {
            try bundle.set(key, value, language: language, table: table)
        } throws: { error in
            "\(error)".contains(message)
        }
        #expect(try bundle.contents() == before)
    }

    @Test func differingSpecifiersAreWrittenWithForce() throws {
        let bundle = try EditedBundle(sampleFiles)
        let edit = Edit(key: "count", language: "de", table: "Localizable",
                        change: .value("%@ Dateien", comment: nil), isForced: true)
        #expect(try bundle.editor().apply(edit) == "de.lproj/Localizable.strings")
    }

    @Test func linksLeadingOutOfTheBundleAreRefused() throws {
        let outside = try EditedBundle(["Localizable.strings": "\"k\" = \"secret\";\n"])
        let bundle = try EditedBundle(sampleFiles)
        try FileSystem.makeSymbolicLink(atPath: bundle.root + "/de.lproj/Evil.strings",
                                        pointingTo: outside.root + "/Localizable.strings")
        try FileSystem.makeSymbolicLink(atPath: bundle.root + "/fr.lproj", pointingTo: outside.root)
        let before = try outside.contents()
        #expect(throws: BundleEditor.Failure.self) { try bundle.set("k", "x", table: "Evil") }
        #expect(throws: BundleEditor.Failure.self) { try bundle.set("k", "x", language: "fr") }
        #expect(try outside.contents() == before)
    }

    @Test func anUnknownLanguageGetsItsFolderOnlyWhenAsked() throws {
        let bundle = try EditedBundle(sampleFiles)
        let edit = Edit(key: "k", language: "it", table: "Localizable",
                        change: .value("ciao", comment: nil), createsLanguage: true)
        #expect(try bundle.editor().apply(edit) == "it.lproj/Localizable.strings")
        #expect(try StringsFile.parse(Array(bundle.read("it.lproj/Localizable.strings").utf8))["k"] == "ciao")
    }

    @Test func removeTakesTheEntry() throws {
        let bundle = try EditedBundle(sampleFiles)
        let edit = Edit(key: "count", language: "de", table: "Localizable", change: .removal)
        #expect(try bundle.editor().apply(edit) == "de.lproj/Localizable.strings")
        #expect(try StringsFile.parse(Array(bundle.read("de.lproj/Localizable.strings").utf8))["count"] == nil)
        #expect(throws: BundleEditor.Failure.self) { try bundle.editor().apply(edit) }
    }

    /// A key in both `T.strings` and `T.stringsdict` is served as its rule: a plain value written to the
    /// `.strings` would change nothing shown, so it is refused (nothing written) and names the `.stringsdict`;
    /// a removal takes the rule first, then the plain value it uncovered.
    @Test func aKeyInBothStringsAndStringsdictIsEditedWhereItIsServed() throws {
        let stringsdict = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>count</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
            <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d Datei</string><key>other</key><string>%d Dateien</string></dict>
            </dict></dict></plist>
            """
        var files = sampleFiles
        files["de.lproj/Localizable.stringsdict"] = stringsdict
        let bundle = try EditedBundle(files)
        let before = try bundle.contents()
        #expect {
            try bundle.set("count", "%d Akten")
        } throws: { error in
            "\(error)".contains("plural entry of") && "\(error)".contains("de.lproj/Localizable.stringsdict")
        }
        #expect(try bundle.contents() == before)
        let removal = Edit(key: "count", language: "de", table: "Localizable", change: .removal)
        #expect(try bundle.editor().apply(removal) == "de.lproj/Localizable.stringsdict")
        #expect(try bundle.editor().apply(removal) == "de.lproj/Localizable.strings")
        #expect(try StringsFile.parse(Array(bundle.read("de.lproj/Localizable.strings").utf8))["count"] == nil)
    }

    /// An editor saves between the set's read and its write: the set reads the new file and edits it again.
    @Test func aFileSavedDuringTheEditIsReadAgainNotOverwritten() throws {
        let bundle = try EditedBundle(sampleFiles)
        var editor = try bundle.editor()
        let saves = Atomic<Int>(0)
        let root = bundle.root
        editor.beforeReplacing = { attempt in
            guard attempt == 0 else { return }
            saves.add(1, ordering: .relaxed)
            let text = "\"greeting\" = \"Hallo\";\n\"count\" = \"%d Dateien\";\n\"editor\" = \"gespeichert\";\n"
            try? FileSystem.writeFileAtomically(Array(text.utf8), toPath: root + "/de.lproj/Localizable.strings")
        }
        _ = try editor.apply(.init(key: "greeting", language: "de", table: "Localizable",
                                   change: .value("Servus", comment: nil)))
        let table = try StringsFile.parse(Array(bundle.read("de.lproj/Localizable.strings").utf8))
        #expect(saves.load(ordering: .relaxed) == 1)
        #expect(table["editor"] == "gespeichert")
        #expect(table["greeting"] == "Servus")
    }

    @Test func concurrentSetsOnOneFileAreAllKept() async throws {
        let bundle = try EditedBundle(sampleFiles)
        let root = bundle.root
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<24 {
                group.addTask {
                    try await offThePool {
                        let editor = try BundleEditor(root: root, developmentLanguage: LanguageTag("en")!)
                        _ = try editor.apply(.init(key: "key\(index)", language: "de", table: "Localizable",
                                                   change: .value("value \(index)", comment: nil)))
                    }
                }
            }
            try await group.waitForAll()
        }
        let table = try StringsFile.parse(Array(bundle.read("de.lproj/Localizable.strings").utf8))
        for index in 0..<24 { #expect(table["key\(index)"] == "value \(index)") }
        #expect(table["greeting"] == "Hallo")
    }

    @Test func aFullDiskIsAnErrorAndTheOldFileStays() throws {
        let disk = try SmallDisk.mounted(size: "64k")
        let bundle = try EditedBundle(sampleFiles, in: disk.path)
        let filler = [UInt8](repeating: 0x61, count: 4096)
        // Fill the disk until a write fails.
        var index = 0
        while (try? FileSystem.writeFile(filler, toPath: disk.path + "/filler\(index)")) != nil, index < 64 {
            index += 1
        }
        let before = try bundle.contents().filter { !$0.key.hasPrefix("filler") }
        #expect {
            try bundle.set("greeting", String(repeating: "lang ", count: 2000))
        } throws: { error in
            "\(error)".contains("ENOSPC")
        }
        #expect(try bundle.contents().filter { !$0.key.hasPrefix("filler") } == before)
    }

    @Test func aReadOnlyFolderIsAnErrorAndTheOldFileStays() throws {
        let disk = try SmallDisk.mounted(size: "1m")
        let bundle = try EditedBundle(sampleFiles, in: disk.path)
        try disk.remountReadOnly()
        let before = try bundle.contents()
        #expect {
            try bundle.set("greeting", "Servus")
        } throws: { error in
            "\(error)".contains("EROFS")
        }
        #expect(try bundle.contents() == before)
    }
}
