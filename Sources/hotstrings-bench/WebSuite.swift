import Foundation
import HotStringsClient
import HotStringsProtocol
import HotStringsTestSupport
import LinuxSystem
import StringsFormat

/// `hotstrings-bench web`: the page's save through its HTTP API until a subscriber has read the reload, against an
/// editor's atomic save in the same run; and the page's first paint of IceCubesApp's catalog against the sample
/// bundle's table.
struct WebSuite: BenchmarkSuite {
    static let name = "web"
    static let abstract = "page save -> subscriber vs an editor's save; first paint of a large catalog vs the sample"
    static let help = """
        USAGE: swift run -c release hotstrings-bench web [--rounds N] [--paints N] [--corpus DIR]

        Starts a real `hotstrings serve --web 0` on a temporary bundle (a 100-key English table). Each round,
        interleaved: an editor's atomic save of en.lproj/Localizable.strings until a subscriber in this process has
        read the reload; then a POST /api/set of one key on a kept-alive HTTP connection (what the page's Save
        sends), until the subscriber has read that reload. Prints both and the ratio of their medians.

        Then the first paint: not a browser (none is practical in a benchmark), but the API answers the page waits
        for before it draws its first rows: /api/tables and /api/status, then /api/table for every language of the
        table, /api/missing and /api/states, one after the other on one connection. Timed for IceCubesApp's
        Localizable.xcstrings (from the corpus) and for the sample bundle's Localizable table, each on its own
        daemon; prints both and the ratio of their medians. The page itself renders at most 200 rows.

        OPTIONS:
          --rounds N       saves and page saves to time (default 200)
          --paints N       first paints to time for each table (default 50)
          --corpus DIR     the corpus folder (default: as for the parse suite)
        """

    static func run(arguments: [String]) throws -> Int32 {
        var options = OptionReader(arguments)
        let rounds = try options.positiveInteger("--rounds") ?? 200
        let paints = try options.positiveInteger("--paints") ?? 50
        let corpus = ParseInputs.corpusDirectory(option: try options.value("--corpus"))
        try options.finish()
        Signals.ignore(.pipe)
        try measureSaves(rounds: rounds)
        try measurePaints(paints: paints, corpus: corpus)
        return 0
    }

    private static func measureSaves(rounds: Int) throws {
        let bundle = try TemporaryBundle(tables: ["en.lproj/Localizable.strings": Daemon.table(0)])
        defer { bundle.remove() }
        let (daemon, page) = try launch(bundle.root)
        defer { _ = try? daemon.terminate() }
        let subscriber = try LineConnection(path: daemon.socket)
        try subscriber.send(#"{"id":1,"op":"subscribe","snapshot":false,"languages":["en"]}"#)
        _ = try subscriber.readLine()
        var saves: [Double] = []
        var sets: [Double] = []
        for round in 1...rounds {
            let text = Daemon.table(round)
            let saveStart = ContinuousClock.now
            try bundle.atomicallyReplace("en.lproj/Localizable.strings", with: text)
            try readReload(subscriber)
            saves.append((ContinuousClock.now - saveStart).seconds)

            let body = #"{"key":"key.7","value":"set in round \#(round)","language":"en"}"#
            let setStart = ContinuousClock.now
            let status = try page.request("POST", "/api/set", body: body).status
            try readReload(subscriber)
            sets.append((ContinuousClock.now - setStart).seconds)
            guard status == 200 else { throw UsageError("the page's set was refused: \(status)") }
        }
        print("until a subscriber has read the reload, \(rounds) rounds, across processes (ms)")
        printRows([("save", saves), ("page set", sets)])
        print(String(format: "  page set / save, p50: %.2fx",
                     WatchSuite.percentile(sets, 0.5) / WatchSuite.percentile(saves, 0.5)))
    }

    private static func measurePaints(paints: Int, corpus: String?) throws {
        guard let corpus, let catalog = try? Data(contentsOf: URL(fileURLWithPath: corpus
            + CatalogSaveLatency.corpusPath)) else {
            print("first paint: skipped, no IceCubesApp catalog under \(corpus ?? "?")")
            return
        }
        let large = try TemporaryBundle(tables: [:])
        defer { large.remove() }
        try FileManager.default.createDirectory(atPath: large.root, withIntermediateDirectories: true)
        try catalog.write(to: URL(fileURLWithPath: large.root + "/Localizable.xcstrings"))
        let sample = try TemporaryBundle(tables: [:])
        defer { sample.remove() }
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: sample.root)
        var results: [(String, [Double])] = []
        for (label, root) in [("sample", sample.root), ("IceCubesApp", large.root)] {
            let (daemon, page) = try launch(root)
            defer { _ = try? daemon.terminate() }
            var samples: [Double] = []
            var bytes = 0
            for _ in 0..<paints {
                let start = ContinuousClock.now
                bytes = try firstPaint(page)
                samples.append((ContinuousClock.now - start).seconds)
            }
            results.append(("\(label) (\(bytes / 1024) KiB)", samples))
        }
        print("first paint: the API answers the page needs for table Localizable, \(paints) times each (ms)")
        printRows(results)
        print(String(format: "  IceCubesApp / sample, p50: %.2fx",
                     WatchSuite.percentile(results[1].1, 0.5) / WatchSuite.percentile(results[0].1, 0.5)))
    }

    /// The requests the page makes before its first rows, in its order; the bytes of the answers.
    private static func firstPaint(_ page: PageConnection) throws -> Int {
        let tables = try page.request("GET", "/api/tables")
        let table = try TableList(body: tables.body).tables.first { $0.table == "Localizable" }
        var bytes = tables.body.count + (try page.request("GET", "/api/status").body.count)
        for language in table?.languages ?? [] {
            bytes += try page.request("GET", "/api/table?table=Localizable&language=\(language)").body.count
        }
        bytes += try page.request("GET", "/api/missing?table=Localizable").body.count
        bytes += try page.request("GET", "/api/states?table=Localizable").body.count
        return bytes
    }

    private static func printRows(_ rows: [(String, [Double])]) {
        print("  " + Format.cell("", 24) + ["p50", "p90", "p99"].map { Format.cell($0, 12, right: true) }.joined())
        for (label, samples) in rows {
            let cells = [0.5, 0.9, 0.99].map {
                Format.cell(String(format: "%.3f", WatchSuite.percentile(samples, $0) * 1e3), 12, right: true)
            }
            print("  " + Format.cell(label, 24) + cells.joined())
        }
    }

    /// `serve --web 0` on `root`, and a connection to its page (the address read from `status`).
    private static func launch(_ root: String) throws -> (DaemonProcess, PageConnection) {
        let daemon = try Daemon.launch(bundle: root, arguments: ["--web", "0"])
        let control = try LineConnection(path: daemon.socket)
        let status = try control.request(.status, as: StatusAnswer.self, timeout: .seconds(60)).get()
        guard let url = status.webURL,
              let address = url.split(separator: "http://127.0.0.1:").last,
              let port = UInt16(address.prefix { $0.isNumber }),
              let token = address.split(separator: "?token=").last else {
            throw UsageError("no page in the daemon's status")
        }
        return (daemon, try PageConnection(port: port, token: String(token)))
    }

    private static func readReload(_ connection: LineConnection) throws {
        while true {
            let line = try connection.readLine()
            if line.starts(with: Array(#"{"event":"reload""#.utf8)) { return }
        }
    }
}

/// One kept-alive HTTP/1.1 connection to the page, authenticated by the bearer token, as a script uses the API.
final class PageConnection {
    private let fd: Int32
    private let port: UInt16
    private let token: String
    private var buffer: [UInt8] = []

    init(port: UInt16, token: String) throws {
        fd = try LoopbackSocket.connect(port: port)
        self.port = port
        self.token = token
    }

    deinit { SocketIO.close(fd) }

    /// Sends one request and reads its whole answer (by `Content-Length`).
    func request(_ method: String, _ target: String, body: String? = nil) throws -> (status: Int, body: [UInt8]) {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\n"
        if let body { text += "Content-Length: \(body.utf8.count)\r\n\r\n" + body } else { text += "\r\n" }
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = try bytes.withUnsafeBytes { pointer throws(SystemError) in try SocketIO.write(fd, pointer) }
            bytes.removeFirst(written)
        }
        while true {
            if let end = headEnd() {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                while buffer.count < end + 4 + length { try fill() }
                let answer = Array(buffer[(end + 4)..<(end + 4 + length)])
                buffer.removeFirst(end + 4 + length)
                return (status, answer)
            }
            try fill()
        }
    }

    private func headEnd() -> Int? {
        guard buffer.count >= 4 else { return nil }
        return (0...(buffer.count - 4)).first { buffer[$0] == 13 && buffer[$0 + 1] == 10 && buffer[$0 + 2] == 13
            && buffer[$0 + 3] == 10 }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let result = try chunk.withUnsafeMutableBytes { pointer throws(SystemError) in
            try SocketIO.read(fd, into: pointer)
        }
        guard case .data(let count) = result else { throw UsageError("the page closed the connection") }
        buffer += chunk[..<count]
    }
}
