import Foundation
import HotStringsClient
import HotStringsEmbedded
import HotStringsLog
import HotStringsTestSupport
import Synchronization

// hotstrings-embedded-log-probe collect|default BUNDLE PULL-TARGET ORIGIN-URL: an app that embeds HotStrings, for
// `EmbeddedLogTests`, which reads its standard error. It watches BUNDLE with the page served (no state directory:
// its token cannot be saved), asks the page a request without the token, a malformed request and a save, pulls
// ORIGIN-URL's release into PULL-TARGET, and pulls from a port where nothing listens. With `collect` every
// embedded client logs to one sink whose records are printed on standard output at the end, one per line:
// `LEVEL<tab>MESSAGE<tab>KEY=VALUE,…`; with `default` the options' default sink is kept.
//
// It writes nothing on standard error itself: whatever is there came from the libraries.
let arguments = CommandLine.arguments
guard arguments.count == 5, ["collect", "default"].contains(arguments[1]) else {
    print("usage: hotstrings-embedded-log-probe collect|default BUNDLE PULL-TARGET ORIGIN-URL")
    exit(64)
}
let (isCollecting, bundle, pullTarget, origin) = (arguments[1] == "collect", arguments[2], arguments[3], arguments[4])

let records = Mutex<[LogSink.Record]>([])
var options = LiveStrings.EmbeddedOptions()
if isCollecting {
    options.log = LogSink(minimumLevel: .debug) { record in records.withLock { $0.append(record) } }
}

/// Ends the probe with `message` on standard output and status 1 (standard error is what the test reads).
func fail(_ message: String) -> Never {
    print("probe failed: \(message)")
    exit(1)
}

do {
    let german = LiveStrings.Configuration(environment: ["LANG": "de"])
    var pageOptions = options
    pageOptions.webPort = 0
    let pageURL = Mutex<String?>(nil)
    pageOptions.onWebPage = { url in pageURL.withLock { $0 = url } }
    let watching = try LiveStrings.embedded(bundle: bundle, configuration: german, options: pageOptions)
    guard await watching.waitUntilSynchronized(timeout: .seconds(30)) else { fail("the bundle was not scanned") }
    guard let url = pageURL.withLock({ $0 }),
          let address = url.split(separator: "http://127.0.0.1:").last,
          let port = UInt16(address.prefix { $0.isNumber }),
          let token = address.split(separator: "?token=").last else { fail("no page address") }

    let stranger = try WebClient(port: port)
    stranger.request("GET", "/api/tables", port: port)
    guard try stranger.response().status == 403 else { fail("a request without the token was not refused") }
    let garbled = try WebClient(port: port)
    garbled.send("NOT HTTP\r\n\r\n")
    guard try garbled.response().status == 400 else { fail("a malformed request was not refused") }
    let editor = try WebClient(port: port)
    editor.request("POST", "/api/set", port: port, headers: [("Authorization", "Bearer \(token)")],
                   body: #"{"key":"greeting","value":"Servus aus der Seite","language":"de"}"#)
    let saved = try editor.response()
    guard saved.status == 200 else { fail("the page's save failed: \(saved.text)") }
    try await pollUntil("the page's save", timeout: .seconds(30)) {
        watching.localizedString("greeting") == "Servus aus der Seite"
    }

    let pulling = try LiveStrings.embedded(
        bundle: pullTarget, pull: LiveStrings.PullSource(url: origin, interval: .seconds(60)),
        configuration: german, options: options)
    try await pollUntil("the pulled release", timeout: .seconds(30)) {
        pulling.localizedString("greeting") == "Hallo aus dem Netz"
    }
    let failures = Mutex(0)
    let nowhere = try LiveStrings.embedded(
        bundle: pullTarget + "-nowhere",
        pull: LiveStrings.PullSource(url: "http://127.0.0.1:1", interval: .seconds(60),
                                     onFailure: { _ in failures.withLock { $0 += 1 } }),
        configuration: german, options: options)
    try await pollUntil("the failed pull", timeout: .seconds(30)) { failures.withLock { $0 } > 0 }

    for strings in [watching, pulling, nowhere] { strings.stop() }
} catch {
    fail("\(error)")
}

for record in records.withLock({ $0 }) {
    let metadata = record.metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    print("\(record.level)\t\(record.message)\t\(metadata)")
}
exit(0)
