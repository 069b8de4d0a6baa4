import Foundation
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

/// The translator's page in a real headless Chromium driven by Selenium (Tests/WebPage/page_test.py): open with
/// the token, search, edit the UTF-16 English file's value with quotes, a backslash, an emoji and a newline,
/// see a file changed on disk without a navigation, a specifier mismatch refused, a conflict shown, every
/// request to the daemon's origin. Cancelled with the reason where Chromium or Selenium is missing.
@Suite(.needsHotstringsBinary)
struct WebPageTests {
    @Test func thePageEditsLiveInChromium() throws {
        guard python3 != nil else { try Test.cancel("python3 is not installed") }
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox)
        let subscriber = try LineClient(socket: sandbox.socket)
        _ = try subscriber.request(#"{"id":1,"op":"subscribe","snapshot":false}"#)
        let english = sandbox.bundle + "/en.lproj/Localizable.strings"
        let before = try Data(contentsOf: URL(fileURLWithPath: english))
        let screenshot = repositoryRoot.appendingPathComponent(".build/web-page.png").path
        let run = try PythonRun(
            ["http://127.0.0.1:\(web.port)/?token=\(web.token)", sandbox.bundle, sandbox.socket,
             hotstringsExecutable?.path ?? "hotstrings", screenshot],
            script: repositoryRoot.appendingPathComponent("Tests/WebPage/page_test.py"), in: sandbox)
        let status = run.finish(timeout: .seconds(120))
        if status == 77 { try Test.cancel("\(run.output.trimmingCharacters(in: .whitespacesAndNewlines))") }
        #expect(status == 0, "\(run.output)\(run.errors)")

        // The page's save was one reload naming the key, and only the value's bytes of the UTF-16 file changed.
        let (reload, _) = try subscriber.nextEvent("reload")
        let change = try #require(reload["changes"]?.arrayValue?.first)
        #expect(change["language"]?.stringValue == "en")
        #expect(change["changed"]?["greeting"]?.stringValue == "Say \"hi\" \\ \u{1F600}\nnext")
        let after = try Data(contentsOf: URL(fileURLWithPath: english))
        let old = try #require(String(data: before, encoding: .utf16))
        let new = try #require(String(data: after, encoding: .utf16))
        #expect(after.prefix(2) == Data([0xFF, 0xFE]))
        #expect(new == old.replacingOccurrences(of: #""greeting" = "Hello!";"#,
                                                with: #""greeting" = "Say \"hi\" \\ 😀\nnext";"#))
        #expect(FileManager.default.fileExists(atPath: screenshot))
        #expect(try web.daemon.terminate() == 0)
    }

    /// The filters for what apps reported: a key no table has, reported missing, gets a row of missing cells;
    /// a key served through a fallback shows which language served it. The catalog state filters show the keys
    /// in each state, and a saved value leaves `needs_review`.
    @Test func theFiltersShowTheKeysAppsReportedAndCatalogStates() throws {
        let sandbox = try Sandbox(extraFiles: ["Review.xcstrings": reviewCatalog])
        let web = try WebDaemon.start(sandbox)
        let app = try LineClient(socket: sandbox.socket)
        let times = #""firstSeen":"2026-12-04T22:31:05.120Z","lastSeen":"2026-12-04T22:31:05.480Z""#
        _ = try app.request(#"{"id":1,"op":"report-missing","entries":["#
            + #"{"kind":"missing","table":"Localizable","key":"promo.banner","language":"de-CH","count":3,\#(times)},"#
            + #"{"kind":"fallback","table":"Localizable","key":"files.header","language":"de","servedBy":"en","#
            + #""count":1,\#(times)}]}"#)
        try runPage("filters_test.py", web: web, in: sandbox)
        #expect(try web.daemon.terminate() == 0)
    }

    /// Plural forms are edited as their forms: a `.stringsdict` entry's and a catalog's plural variations, and a
    /// catalog's device variations and a `.stringsdict` entry's devices as each device's text; each saved form
    /// changes only its own bytes.
    @Test func pluralFormsAreEditedAsTheirForms() throws {
        let gestures = deviceStringsdict(iphone: ("%lld Tipp", "%lld Tipps"), mac: "Klicken, %@", other: "Tippen, %@")
        let sandbox = try Sandbox(extraFiles: [
            "Devices.xcstrings": devicesCatalog, "de.lproj/Gestures.stringsdict": gestures,
            "en.lproj/Gestures.stringsdict": deviceStringsdict(iphone: ("%lld tip", "%lld tips"), mac: "Click, %@",
                                                               other: "Tap, %@"),
        ])
        let web = try WebDaemon.start(sandbox)
        let stringsdict = try sandbox.read("de.lproj/Localizable.stringsdict")
        let catalog = try sandbox.read("Settings.xcstrings")
        try runPage("forms_test.py", web: web, in: sandbox)
        #expect(try sandbox.read("de.lproj/Localizable.stringsdict")
            == stringsdict.replacingOccurrences(of: "<string>%d Eintrag</string>", with: "<string>%d Posten</string>"))
        #expect(try sandbox.read("Settings.xcstrings")
            == xcodeLayout(catalog).replacingOccurrences(of: #""value" : "%lld Dateien ausgewählt""#,
                                            with: #""value" : "%lld Dateien gewählt""#)
                .replacingOccurrences(of: #""value" : "Klicken, um fortzufahren""#,
                                      with: #""value" : "Klick, um fortzufahren""#))
        #expect(try sandbox.read("Devices.xcstrings") == devicesCatalog.replacingOccurrences(
            of: #""value" : "%lld Foto""#, with: #""value" : "ein Foto (%lld)""#))
        #expect(try sandbox.read("de.lproj/Gestures.stringsdict")
            == gestures.replacingOccurrences(of: "<string>Klicken, %@</string>", with: "<string>Klick, %@</string>"))
        #expect(try web.daemon.terminate() == 0)
    }

    /// Pseudo-languages are marked as such, shown last, and read-only.
    @Test func pseudoLanguagesAreMarkedAndReadOnly() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox, arguments: ["--pseudo-languages"])
        try runPage("pseudo_test.py", web: web, in: sandbox)
        #expect(try web.daemon.terminate() == 0)
    }

    /// A bundle managed by `pull` is shown read-only: the reason above the table, and no cell opens an editor.
    @Test func aBundleManagedByPullIsShownReadOnly() throws {
        let (sandbox, _) = try pulledSandbox()
        let web = try WebDaemon.start(sandbox)
        try runPage("read_only_test.py", web: web, in: sandbox)
        #expect(try web.daemon.terminate() == 0)
    }

    /// Runs a Selenium script of Tests/WebPage on the page; cancels the test when it exits 77 (no Chromium or
    /// Selenium: the reason is its output).
    private func runPage(_ script: String, web: WebDaemon, in sandbox: Sandbox, _ arguments: [String] = []) throws {
        guard python3 != nil else { try Test.cancel("python3 is not installed") }
        let run = try PythonRun(["http://127.0.0.1:\(web.port)/?token=\(web.token)"] + arguments,
                                script: repositoryRoot.appendingPathComponent("Tests/WebPage/" + script), in: sandbox)
        let status = run.finish(timeout: .seconds(180))
        if status == 77 { try Test.cancel("\(run.output.trimmingCharacters(in: .whitespacesAndNewlines))") }
        #expect(status == 0, "\(run.output)\(run.errors)")
    }
}

/// `text` as the catalog editor writes it: Xcode's layout ends without a newline.
func xcodeLayout(_ text: String) -> String {
    text.hasSuffix("\n") ? String(text.dropLast()) : text
}

/// A catalog, in Xcode's layout, whose key varies by device, the iPhone's text by plural too.
let devicesCatalog = String(decoding: StringCatalogEditor.xcodeLayout(try! JSONValue(parsing: Array(#"""
    {"sourceLanguage":"en","version":"1.0","strings":{"photos %lld":{"localizations":{
      "de":{"variations":{"device":{
        "iphone":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld Foto"}},
                                          "other":{"stringUnit":{"state":"translated","value":"%lld Fotos"}}}}},
        "other":{"stringUnit":{"state":"translated","value":"%lld Bilder"}}}}},
      "en":{"variations":{"device":{
        "iphone":{"variations":{"plural":{"one":{"stringUnit":{"state":"translated","value":"%lld photo"}},
                                          "other":{"stringUnit":{"state":"translated","value":"%lld photos"}}}}},
        "other":{"stringUnit":{"state":"translated","value":"%lld pictures"}}}}}}}}}
    """#.utf8))), as: UTF8.self)

/// A catalog with one key in each translation state in German.
let reviewCatalog = #"""
    {"sourceLanguage":"en","version":"1.0","strings":{
    "a.new":{"localizations":{"de":{"stringUnit":{"state":"new","value":"A"}}}},
    "b.review":{"localizations":{"de":{"stringUnit":{"state":"needs_review","value":"B"}}}},
    "c.stale":{"localizations":{"de":{"stringUnit":{"state":"stale","value":"C"}}}},
    "d.done":{"localizations":{"de":{"stringUnit":{"state":"translated","value":"D"}}}}}}
    """#
