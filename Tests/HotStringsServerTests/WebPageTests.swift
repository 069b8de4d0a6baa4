import Foundation
import HotStringsTestSupport
import LinuxSystem
import StringsFormat
import Testing

/// The translator's page in a real headless Chromium driven by Selenium (Tests/WebPage/page_test.py): open with
/// the token, search, edit the UTF-16 English file's value with quotes, a backslash, an emoji and a newline,
/// see a file changed on disk without a navigation, a specifier mismatch refused, a conflict shown, every
/// request to the daemon's origin. Cancelled with the reason where Chromium or Selenium is missing.
@Suite(needsDaemon)
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
}
