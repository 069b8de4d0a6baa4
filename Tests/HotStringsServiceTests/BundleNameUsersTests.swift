import BundleChanges
import BundleWatcher
import Foundation
import HotStringsLint
import HotStringsProtocol
import HotStringsRelease
import HotStringsService
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Synchronization
import Testing

/// One name of a bundle and what the daemon makes of it, for every user of the naming rule to agree with.
struct NameCase: Sendable, CustomStringConvertible {
    /// What a file is served as.
    enum Served: Sendable, Hashable {
        /// A table of a language folder: the language (canonical) and the table.
        case table(String, String)
        /// A String Catalog of the table.
        case catalog(String)
        /// Nothing.
        case no
    }

    /// What the path's first component, an entry of the root, is to a release.
    enum Root: Sendable {
        /// A language folder: a release links it into `..data`.
        case languageFolder
        /// A String Catalog in the root: a release links it too.
        case catalog
        /// Anything else: no release holds it.
        case other
    }

    /// The file's path from the root.
    var path: String
    var served: Served
    var root: Root
    /// Whether `lint` and `publish` say they leave the name (or its folder) out: it looks meant as a language folder,
    /// a table or a catalog.
    var isSaid = false
    /// The language and table an edit of key `k` aims at: what the name is meant as.
    var language: String
    var table: String

    var description: String { path }

    /// Whether a release carries the file as a table: served, from a language folder or the root.
    var isReleased: Bool { served != .no && root != .other }

    static func table(_ path: String, _ language: String, _ table: String) -> NameCase {
        NameCase(path: path, served: .table(language, table), root: .languageFolder, language: language, table: table)
    }

    static func catalog(_ path: String, root: Root) -> NameCase {
        NameCase(path: path, served: .catalog("Foo"), root: root, language: "en", table: "Foo")
    }

    static func unserved(_ path: String, root: Root = .other, isSaid: Bool, _ language: String, _ table: String)
        -> NameCase {
        NameCase(path: path, served: .no, root: root, isSaid: isSaid, language: language, table: table)
    }

    /// Every case: the names of issue 37 and their neighbours.
    static let all: [NameCase] = [
        .table("de.lproj/Localizable.strings", "de", "Localizable"),
        .table("DE.lproj/Localizable.strings", "de", "Localizable"),
        .table("de_DE.lproj/Localizable.strings", "de-DE", "Localizable"),
        .table("zh-Hans.lproj/Localizable.strings", "zh-Hans", "Localizable"),
        .table("Base.lproj/Localizable.strings", "Base", "Localizable"),
        .table("German.lproj/Localizable.strings", "de", "Localizable"),
        .table("en.lproj/Localizable.stringsdict", "en", "Localizable"),
        .unserved("de.lproj~/Localizable.strings", isSaid: true, "de", "Localizable"),
        .unserved(".de.lproj/Localizable.strings", isSaid: true, "de", "Localizable"),
        .unserved("DE.LPROJ/X.STRINGS", isSaid: true, "de", "X"),
        .unserved("DE.LPROJ/X.strings", isSaid: true, "de", "X"),
        .unserved("Not a tag.lproj/Localizable.strings", isSaid: true, "Not a tag", "Localizable"),
        .unserved("en.lproj/Localizable.STRINGS", root: .languageFolder, isSaid: true, "en", "Localizable"),
        .unserved("en.lproj/Plural.STRINGSDICT", root: .languageFolder, isSaid: true, "en", "Plural"),
        .unserved("en.lproj/x.strings.swp", root: .languageFolder, isSaid: true, "en", "x"),
        .unserved("en.lproj/.#Localizable.strings", root: .languageFolder, isSaid: true, "en", "Localizable"),
        .unserved("en.lproj/#Localizable.strings#", root: .languageFolder, isSaid: true, "en", "Localizable"),
        .unserved("en.lproj/Localizable.strings~", root: .languageFolder, isSaid: true, "en", "Localizable"),
        .unserved("en.lproj/.Localizable.strings.Xa9f3Q", root: .languageFolder, isSaid: false, "en", "Localizable"),
        .unserved("en.lproj/4913", root: .languageFolder, isSaid: false, "en", "4913"),
        .unserved("..data/en.lproj/Localizable.strings", isSaid: false, "en", "Localizable"),
        .unserved("..r-abc/en.lproj/Localizable.strings", isSaid: false, "en", "Localizable"),
        .unserved("Localizable.strings", isSaid: false, "en", "Localizable"),
        .catalog("Foo.xcstrings", root: .catalog),
        .catalog("en.lproj/Foo.xcstrings", root: .languageFolder),
        .catalog("Resources/Foo.xcstrings", root: .other),
        .unserved("Foo.XCSTRINGS", isSaid: true, "en", "Foo"),
        .unserved(".hidden/Foo.xcstrings", isSaid: false, "en", "Foo"),
        .unserved("Resources~/Foo.xcstrings", isSaid: false, "en", "Foo"),
        .unserved("en.lproj/sub/Foo.xcstrings", root: .languageFolder, isSaid: false, "en", "Foo"),
    ]
}

/// Every user of the naming rule, run over the same names, finds one answer each (issue 37, item 3): the watcher on
/// a real temporary bundle (names found by its scan and names moved in while it watches), `lint`, `publish`, the
/// manifest check, the release store, the catalog search (through the watcher, `publish` and the editor) and the
/// editor.
@Suite struct BundleNameUsersTests {
    /// The file every case's bundle holds besides the case's, whose saves mark how far the watcher has read.
    static let marker = "en.lproj/Marker.strings"

    @Test(arguments: NameCase.all)
    func everyUserFindsOneAnswer(_ name: NameCase) throws {
        let sandbox = try Sandbox(tables: [Self.marker: #""marker" = "1";"#], prefix: "hs-names-")
        let root = sandbox.bundle
        let staging = sandbox.root + "/staging"
        try write(Self.content(of: name.path), to: staging + "/" + name.path)

        // The watcher, first as the name is moved in while it watches, then as its scan finds it.
        let moved = try watch(root) { () throws in
            let entry = Self.movedEntry(of: name.path)
            try FileSystem.rename(staging + "/" + entry, to: root + "/" + entry)
            try write(#""marker" = "2";"#, to: staging + "/Marker.strings")
            try FileSystem.rename(staging + "/Marker.strings", to: root + "/" + Self.marker)
        }
        #expect(Self.answer(of: moved, path: name.path) == name.served, "watcher, moved in: \(name)")
        let scanned = try watch(root) {}
        #expect(Self.answer(of: scanned, path: name.path) == name.served, "watcher, scan: \(name)")

        // lint: checks what is served, as the daemon serves it; says so when it leaves a name out.
        let report = Linter(developmentLanguage: "en").lint(paths: [root])
        let linted = report.files.first { $0.path == root + "/" + name.path }
        let lintAnswer: NameCase.Served = if let linted, !linted.isSkipped {
            linted.place.map { .table($0.language, $0.table) } ?? (linted.catalog != nil ? .catalog(name.table) : .no)
        } else {
            .no
        }
        #expect(lintAnswer == name.served, "lint: \(name)")
        let lintSkipped = report.files.filter(\.isSkipped).map { String($0.path.dropFirst(root.count + 1)) }
        #expect(lintSkipped.contains { Self.names(name.path, $0) } == name.isSaid, "lint: \(name) \(lintSkipped)")
        for file in report.files where file.isSkipped {
            #expect(file.diagnostics.map(\.kind) == [.notServed], "lint: \(file.path)")
        }

        // publish: carries what a release can serve; a catalog outside the root and the language folders is refused.
        do throws(ReleaseError) {
            let collected = try Publisher().collect(bundle: root)
            #expect(collected.tables.contains { $0.path == name.path } == name.isReleased, "publish: \(name)")
            #expect(name.served == .no || name.isReleased, "publish: \(name) published though a release cannot hold it")
            let said = collected.skipped.map(\.path)
            #expect(said.contains(where: { Self.names(name.path, $0) }) == name.isSaid, "publish: \(name) \(said)")
        } catch {
            guard case .invalidTable(let problem) = error else { throw error }
            #expect(name.served != .no && !name.isReleased && problem.file == name.path, "publish: \(name) \(error)")
        }

        // The manifest check: a pull installs the file as a table only where a release serves it.
        let bytes = Array(Self.content(of: name.path).utf8)
        let manifest = ReleaseManifest(release: "r1", created: "2026-12-04T00:00:00Z", files: [
            .init(path: name.path, size: bytes.count, sha256: SHA256.hexDigest(bytes)),
        ])
        let decoded = try? ReleaseManifest.decode(manifest.json)
        #expect((decoded != nil && ReleaseContent.isTable(name.path)) == name.isReleased, "manifest: \(name)")

        try checkEditor(name, root: root)
        try checkStore(name, sandbox: sandbox, staging: staging)
    }

    /// The editor writes a key of the language and table the name is meant as where the daemon serves it: into the
    /// case's file when it is served, never into it when it is not.
    private func checkEditor(_ name: NameCase, root: String) throws {
        let before = try FileSystem.readFile(atPath: root + "/" + name.path, maximumSize: 1 << 20)
        let editor = try BundleEditor(root: root, developmentLanguage: LanguageTag("en")!)
        let change: Edit.Change = name.path.hasSuffix(".stringsdict")
            ? .form("one", variable: nil, value: "%d thing") : .value("edited", comment: nil)
        let written = try? editor.apply(.init(key: "k", language: name.language, table: name.table, change: change))
        #expect((written == name.path) == (name.served != .no), "editor: \(name) wrote \(written ?? "nothing")")
        if name.served == .no {
            #expect(try FileSystem.readFile(atPath: root + "/" + name.path, maximumSize: 1 << 20) == before,
                    "editor: \(name) changed")
        }
    }

    /// The release store owns, and links into `..data`, the root entries that are language folders or catalogs: it
    /// refuses a bundle holding such an entry of its own, and a release holding the file links its entry.
    private func checkStore(_ name: NameCase, sandbox: Sandbox, staging: String) throws {
        let own = sandbox.root + "/own"
        let entry = String(name.path.prefix { $0 != "/" })
        try write(Self.content(of: name.path), to: own + "/" + name.path)
        do throws(ReleaseError) {
            try ReleaseStore(bundle: own).prepare()
            #expect(name.root == .other, "store: \(name) of the bundle's own taken for a release's")
        } catch {
            guard case .unmanagedBundle(let message) = error else { throw error }
            #expect(name.root != .other && message.contains("holds \(entry) of its own"), "store: \(name) \(error)")
        }
        guard name.isReleased else { return }
        let pulled = sandbox.root + "/pulled"
        let bytes = Array(Self.content(of: name.path).utf8)
        let manifest = ReleaseManifest(release: "r1", created: "2026-12-04T00:00:00Z", files: [
            .init(path: name.path, size: bytes.count, sha256: SHA256.hexDigest(bytes)),
        ])
        let store = ReleaseStore(bundle: pulled)
        try store.locked { () throws(ReleaseError) in
            try store.prepare()
            try store.install(InstalledRelease(manifest: manifest, installedAt: 1), contents: [name.path: bytes])
        }
        #expect(try FileSystem.linkTarget(atPath: pulled + "/" + entry) == "..data/" + entry, "store: \(name)")
        #expect(try FileSystem.readFile(atPath: pulled + "/" + name.path, maximumSize: 1 << 20) == bytes)
    }

    // MARK: - Helpers

    /// Starts a watcher on `root`, waits for its scan, runs `change`, then waits until the marker's second text is
    /// read (a change noted before the marker's is read with it or before it), and returns every batch.
    private func watch(_ root: String, _ change: () throws -> Void) throws -> [ChangeBatch] {
        let watcher = try BundleWatcher(root: root)
        let batches = Mutex<[ChangeBatch]>([])
        watcher.start { batch in batches.withLock { $0.append(batch) } }
        defer {
            watcher.stop()
            _ = waitUntil { watcher.hasFinished }
        }
        try waitUntil("the scan") { batches.withLock { !$0.isEmpty } }
        try change()
        try waitUntil("the marker's save") {
            batches.withLock { $0.contains { $0.updates.contains { Self.text(of: $0) == "2" } } }
        }
        return batches.withLock { $0 }
    }

    /// The marker's text in `update`, when it is the marker's.
    private static func text(of update: TableUpdate) -> String? {
        guard update.file == marker, case .parsed(let content) = update.content else { return nil }
        return content.strings["marker"]
    }

    /// What the batches serve `path` as, the last word winning.
    static func answer(of batches: [ChangeBatch], path: String) -> NameCase.Served {
        var answer = NameCase.Served.no
        for batch in batches {
            if batch.isFullScan { answer = .no }
            for update in batch.updates where update.file == path {
                if case .removed = update.content {
                    answer = .no
                } else {
                    answer = update.isCatalog ? .catalog(update.id.table)
                        : .table(update.id.language.identifier, update.id.table)
                }
            }
        }
        return answer
    }

    /// The entry moved in to make `path` appear: its first component, or inside `en.lproj` (which holds the marker)
    /// its second.
    static func movedEntry(of path: String) -> String {
        let parts = path.split(separator: "/").map(String.init)
        return parts[0] == "en.lproj" && parts.count > 1 ? "en.lproj/" + parts[1] : parts[0]
    }

    /// Whether `said` is `path` or one of its folders.
    static func names(_ path: String, _ said: String) -> Bool {
        path == said || path.hasPrefix(said + "/")
    }

    /// A valid file for `path`: a `.strings` table, a `.stringsdict`'s plural entry or a catalog holding key `k`, by
    /// the format its name looks meant as.
    static func content(of path: String) -> String {
        let name = String(path.split(separator: "/").last ?? "")
        switch BundleNames.readableFormat(ofFile: name) {
        case .catalog?:
            return #"{"sourceLanguage": "en", "strings": {"k": {"localizations": {"en": {"stringUnit": "#
                + #"{"state": "translated", "value": "v"}}}}}, "version": "1.0"}"#
        case .stringsdict?:
            return """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>k</key><dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@n@</string>
                <key>n</key><dict><key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><string>d</string>
                <key>one</key><string>%d item</string><key>other</key><string>%d items</string></dict>
                </dict></dict></plist>
                """
        case .strings?, nil:
            return #""k" = "v";"#
        }
    }

    private func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }
}
