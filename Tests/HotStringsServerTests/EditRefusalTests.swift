import Foundation
import HotStringsProtocol
import HotStringsTestSupport
import HotStringsTestTraits
import LinuxSystem
import StringsFormat
import Testing

/// Writes refused with nothing written, on every writer's path (the daemon's socket, the page's API, `--bundle`): a
/// bundle managed by `pull`, whose files are a release's; a pseudo-language where it is served; and a new language
/// whose value is refused, which leaves no folder behind (issue 37, probe round 3).
@Suite(.needsHotstringsBinary)
struct EditRefusalTests {
    @Test func aBundleManagedByPullRefusesEveryWriter() throws {
        let (sandbox, origin) = try pulledSandbox()
        let before = try bundleFiles(sandbox.bundle)
        let message = "the bundle is managed by pull"
        let commands = [
            ["set", "greeting", "Servus", "--language", "de"], ["remove", "greeting", "--language", "de"],
            ["set", "greeting", "Annyeong", "--language", "ko", "--create-language"],
        ]
        for arguments in commands {
            let run = try HotstringsProcess.run(arguments + ["--bundle", sandbox.bundle])
            #expect(run.code == 1, "\(arguments): \(run.stdout)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        let requests = [
            #"{"id":1,"op":"set","key":"greeting","value":"Servus","language":"de"}"#,
            #"{"id":2,"op":"remove","key":"greeting","language":"de"}"#,
            #"{"id":3,"op":"set","key":"greeting","value":"Annyeong","language":"ko","createLanguage":true}"#,
        ]
        // A daemon serving the pulled bundle, then one pulling into it itself: the page's API and the socket refuse.
        let web = try WebDaemon.start(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        for request in requests {
            let answer = try client.request(request, timeout: .seconds(20))
            #expect(answer["error"]?.string("code") == "bad_request", "\(request): \(answer)")
            #expect(answer["error"]?.string("message")?.contains(message) == true, "\(request): \(answer)")
        }
        let status = try client.request(#"{"id":4,"op":"status"}"#, timeout: .seconds(20))
        #expect(status.string("readOnly")?.contains(message) == true, "\(status)")
        let page = try web.client()
        page.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                     body: #"{"key":"greeting","value":"Servus","language":"de"}"#)
        let refused = try page.response()
        #expect(refused.status == 400)
        #expect(refused.text.contains(message), "\(refused.text)")
        #expect(try web.daemon.terminate() == 0)

        let pulling = try PullingDaemon(bundle: sandbox.bundle, url: origin.url, interval: "60")
        let pulled = try LineClient(socket: pulling.socket)
        for request in requests {
            let answer = try pulled.request(request, timeout: .seconds(20))
            #expect(answer["error"]?.string("message")?.contains(message) == true, "\(request): \(answer)")
        }
        #expect(try pulling.terminate() == 0)
        #expect(try bundleFiles(sandbox.bundle) == before)
    }

    @Test func pseudoLanguagesAreRefusedWhereTheyAreServed() throws {
        let sandbox = try Sandbox()
        let web = try WebDaemon.start(sandbox, arguments: ["--pseudo-languages"])
        let client = try LineClient(socket: sandbox.socket)
        for request in [
            #"{"id":1,"op":"set","key":"greeting","value":"Hi","language":"en-XA","createLanguage":true}"#,
            #"{"id":2,"op":"set","key":"greeting","value":"Hi","language":"ar-XB"}"#,
            #"{"id":3,"op":"remove","key":"greeting","language":"en-XA"}"#,
        ] {
            let answer = try client.request(request, timeout: .seconds(20))
            #expect(answer["error"]?.string("code") == "bad_request", "\(request): \(answer)")
            #expect(answer["error"]?.string("message")?.contains("is a pseudo-language, made from 'en'") == true,
                    "\(request): \(answer)")
        }
        let page = try web.client()
        page.request("POST", "/api/set", port: web.port, headers: [web.bearer],
                     body: #"{"key":"greeting","value":"Hi","language":"en-XA","createLanguage":true}"#)
        let refused = try page.response()
        #expect(refused.status == 400)
        #expect(refused.text.contains("pseudo-language"), "\(refused.text)")
        #expect(try web.daemon.terminate() == 0)
        for folder in ["en-XA.lproj", "ar-XB.lproj"] {
            #expect(!FileManager.default.fileExists(atPath: sandbox.bundle + "/" + folder))
        }
    }

    /// Every refusal a new language's set can meet once its place is found (its value's specifiers, a
    /// pseudo-language, a bundle managed by pull: the last two in the tests above) leaves no folder.
    @Test func aRefusedNewLanguageLeavesNoFolder() throws {
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let client = try LineClient(socket: sandbox.socket)
        let korean = #""key":"profile.online","language":"ko","createLanguage":true"#
        let answer = try client.request(#"{"id":1,"op":"set","value":"%d ist online",\#(korean)}"#,
                                        timeout: .seconds(20))
        #expect(answer["error"]?.string("code") == "bad_request", "\(answer)")
        #expect(answer["error"]?.string("message")?.contains("takes argument 1 as an integer") == true, "\(answer)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.bundle + "/ko.lproj"))
        // Accepted, the same language gets its folder and file.
        let accepted = try client.request(#"{"id":2,"op":"set","value":"%@ ist online",\#(korean)}"#,
                                          timeout: .seconds(20))
        #expect(accepted.string("file") == "ko.lproj/Localizable.strings", "\(accepted)")
        #expect(try daemon.terminate() == 0)
    }
}

/// A sandbox whose bundle is a release of the sample bundle, published (to `<root>/published`), served by an
/// origin and installed with `hotstrings pull`: `..data`, `..r-<id>` and the links to it.
func pulledSandbox() throws -> (Sandbox, FaultOrigin) {
    let sandbox = try Sandbox(prefix: "hs-pulled-")
    let published = sandbox.root + "/published"
    let publish = try HotstringsProcess.run(["publish", sandbox.bundle, published])
    guard publish.code == 0 else { throw ClientError(description: "publish failed: \(publish.stderr)") }
    try FileSystem.removeRecursively(atPath: sandbox.bundle)
    let origin = try FaultOrigin(root: published)
    let pull = try HotstringsProcess.run(["pull", origin.url, sandbox.bundle])
    guard pull.code == 0 else { throw ClientError(description: "pull failed: \(pull.stderr)") }
    return (sandbox, origin)
}

/// Every entry below `bundle` (links as their targets, files as their bytes), but the pull lock, which each pull
/// writes its process id into, and the empty folder of the first install, which the next pull's start removes.
func bundleFiles(_ bundle: String) throws -> [String: Data] {
    guard let paths = FileManager.default.enumerator(atPath: bundle) else {
        throw ClientError(description: "cannot list \(bundle)")
    }
    var files: [String: Data] = [:]
    for case let path as String in paths {
        guard path != "..pull.lock", path != "...empty" else { continue }
        let full = bundle + "/" + path
        if let target = try? FileSystem.linkTarget(atPath: full) {
            files[path] = Data(target.utf8)
        } else if try FileSystem.status(atPath: full).kind == .file {
            files[path] = try Data(contentsOf: URL(fileURLWithPath: full))
        } else {
            files[path] = Data()
        }
    }
    return files
}
