import Foundation
import LinuxSystem

/// A real nginx serving a folder on 127.0.0.1, with a temporary configuration and prefix: the web origin of the
/// over-the-air tests. Stopped (SIGQUIT, then SIGKILL) on deinit.
///
/// nginx runs as one process (`daemon off; master_process off;`), our direct child: it dies with the test process
/// (see `ChildProcess`) instead of leaving a master and its workers behind when a run crashes.
///
/// The manifest is sent with `Cache-Control: no-cache` and `files/` as immutable, as docs/DEPLOY.md says; the
/// access log records `<uri> <status> <body bytes>` per request.
package final class NginxOrigin {
    /// Where nginx is looked for.
    package static let executable = ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx"]
        .first(where: FileManager.default.isExecutableFile)

    /// The base URL (`http://127.0.0.1:<port>`).
    package let url: String
    /// The folder served.
    package let root: String
    private let prefix: String
    private var process: ChildProcess?

    /// Starts nginx serving `root` on a free port of 127.0.0.1, over HTTPS with `tls` (its URL then starts with
    /// `https://`).
    /// - Throws: `TimedOut` when nginx is not installed or does not start (with its error log).
    package init(root: String, tls: TestCertificate? = nil) throws {
        guard let executable = Self.executable else { throw TimedOut(description: "nginx is not installed") }
        self.root = root
        let prefix = try FileSystem.makeTemporaryDirectory(prefix: "hs-nginx-")
        self.prefix = prefix
        try FileSystem.makeDirectory(atPath: prefix + "/tmp")
        var started: String?
        for _ in 0..<8 {
            let port = Int.random(in: 20_000..<60_000)
            try Self.configuration(prefix: prefix, root: root, port: port, tls: tls)
                .write(toFile: prefix + "/nginx.conf", atomically: true, encoding: .utf8)
            var configuration = ChildProcess.Configuration(
                executable, ["-p", prefix, "-c", prefix + "/nginx.conf", "-e", prefix + "/error.log"])
            configuration.standardOutput = .null
            configuration.standardError = .null
            let candidate = try ChildProcess(configuration)
            // nginx writes its pid file once its listening sockets are bound; a port in use makes it exit.
            _ = waitUntil(.seconds(30)) {
                !candidate.isRunning || FileManager.default.fileExists(atPath: prefix + "/nginx.pid")
            }
            if candidate.isRunning {
                started = "\(tls == nil ? "http" : "https")://127.0.0.1:\(port)"
                process = candidate
                break
            }
        }
        guard let started else {
            let log = (try? String(contentsOfFile: prefix + "/error.log", encoding: .utf8)) ?? ""
            throw TimedOut(description: "nginx did not start:\n\(log)")
        }
        url = started
    }

    deinit {
        if let running = process, running.isRunning {
            try? running.send(.quit)
            if running.waitForExit(timeout: .seconds(10)) == nil { try? running.send(.kill) }
            _ = running.waitForExit()
        }
        try? FileSystem.removeRecursively(atPath: prefix)
    }

    /// The access log's lines so far: `<uri> <status> <bytes>`.
    package var requests: [String] {
        ((try? String(contentsOfFile: prefix + "/access.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    private static func configuration(prefix: String, root: String, port: Int, tls: TestCertificate?) -> String {
        let listen = tls.map {
            "listen 127.0.0.1:\(port) ssl;\n        ssl_certificate \($0.certificate);\n"
                + "        ssl_certificate_key \($0.key);"
        } ?? "listen 127.0.0.1:\(port);"
        return """
        daemon off;
        master_process off;
        pid \(prefix)/nginx.pid;
        error_log \(prefix)/error.log;
        events { worker_connections 256; }
        http {
            log_format brief '$uri $status $body_bytes_sent';
            access_log \(prefix)/access.log brief;
            client_body_temp_path \(prefix)/tmp;
            proxy_temp_path \(prefix)/tmp;
            fastcgi_temp_path \(prefix)/tmp;
            uwsgi_temp_path \(prefix)/tmp;
            scgi_temp_path \(prefix)/tmp;
            server {
                \(listen)
                root \(root);
                location = /manifest.json { add_header Cache-Control "no-cache"; }
                location /files/ { add_header Cache-Control "public, max-age=31536000, immutable"; }
            }
        }

        """
    }
}

/// A small web origin in Python's standard library that serves a folder and misbehaves on demand, for what a
/// real server will not do: truncated bodies, wrong bytes, 500 and 503, a reset mid-body, a stalled response, a
/// redirect loop, an oversized body, invalid JSON, a missing file.
///
/// `setFault(_:for:)` applies to requests whose path starts with the given prefix (`/manifest.json`, `/files/`);
/// faults are read from a JSON file at each request, so a change applies to the next request.
package final class FaultOrigin {
    /// What the origin does instead of serving a file well.
    package enum Fault: String, Sendable, CaseIterable {
        /// Declares the full length, sends half the body, closes.
        case truncated
        /// Sends bytes of the right length with one byte changed.
        case wrongBytes = "wrong-bytes"
        /// Answers 500.
        case status500 = "status-500"
        /// Answers 503.
        case status503 = "status-503"
        /// Sends half the body, then resets the connection (SO_LINGER 0).
        case reset
        /// Sends the headers and a few bytes, then nothing.
        case stall
        /// Redirects to itself, forever.
        case redirectLoop = "redirect-loop"
        /// Sends 8 MiB more than the file.
        case oversized
        /// Sends `{"format": 1, "release": ` (not JSON).
        case invalidJSON = "invalid-json"
        /// Answers 404.
        case missing
        /// Sends a 0.5 MB gzip body inflating to 512 MiB, with `Content-Encoding: gzip`, whatever was asked (made
        /// at the first request: give it a few seconds).
        case gzipBomb = "gzip-bomb"
        /// Answers 200 with a chunked body that never ends (spaces, until the client goes away).
        case endlessBody = "endless-body"
        /// Answers 302 to itself with a chunked body that never ends (spaces, until the client goes away).
        case redirectWithEndlessBody = "redirect-endless-body"
        /// Answers 304 Not Modified, whatever the request's validators.
        case notModified = "not-modified"
        /// Answers 302 without a `Location` header.
        case redirectWithoutLocation = "redirect-without-location"
    }

    /// The base URL (`http://127.0.0.1:<port>`).
    package let url: String
    private let directory: String
    private let process: ChildProcess
    private var faults: [String: String] = [:]

    /// Starts the origin serving `root`.
    /// - Throws: `TimedOut` when python3 is missing or the server does not report its port.
    package init(root: String) throws {
        guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"]
            .first(where: FileManager.default.isExecutableFile) else {
            throw TimedOut(description: "python3 is not installed")
        }
        directory = try FileSystem.makeTemporaryDirectory(prefix: "hs-faults-")
        try Self.script.write(toFile: directory + "/origin.py", atomically: true, encoding: .utf8)
        try "{}".write(toFile: directory + "/faults.json", atomically: true, encoding: .utf8)
        var configuration = ChildProcess.Configuration(python, [directory + "/origin.py", root,
                                                                directory + "/faults.json"])
        configuration.standardError = .null
        process = try ChildProcess(configuration)
        let reader = PipeReader(process.standardOutput!)
        try reader.wait(untilContains: "\n")
        guard let port = Int(reader.text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TimedOut(description: "the fault origin did not report its port: \(reader.text)")
        }
        url = "http://127.0.0.1:\(port)"
    }

    deinit {
        // SIGKILL: the server has no children and nothing to flush.
        try? process.send(.kill)
        _ = process.waitForExit()
        try? FileSystem.removeRecursively(atPath: directory)
    }

    /// The body bytes each endless body (`endlessBody`) had sent when its client went away, in
    /// the order they ended (what a socket's buffers hold is counted as sent).
    package var endlessBodiesSent: [Int] {
        ((try? String(contentsOfFile: directory + "/sent.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { Int($0) }
    }

    /// The `Accept-Encoding` header of each request, in order (`-` when there was none).
    package var acceptEncodings: [String] {
        ((try? String(contentsOfFile: directory + "/requests.log", encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init)
    }

    /// Makes requests whose path starts with `prefix` get `fault` (nil: served well again).
    /// - Throws: when the faults file cannot be written.
    package func setFault(_ fault: Fault?, for prefix: String) throws {
        faults[prefix] = fault?.rawValue
        let data = try JSONSerialization.data(withJSONObject: faults)
        try data.write(to: URL(fileURLWithPath: directory + "/faults.json"), options: .atomic)
    }

    private static let script = #"""
    import json, os, socket, struct, sys, threading, time, zlib
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    ROOT, FAULTS = sys.argv[1], sys.argv[2]
    LOGS = os.path.dirname(FAULTS)
    BOMB = []
    LOCK = threading.Lock()

    def bomb():
        with LOCK:
            if not BOMB:
                compressor = zlib.compressobj(6, zlib.DEFLATED, 31)
                zeros = bytes(1 << 20)
                BOMB.append(b"".join(compressor.compress(zeros) for _ in range(512)) + compressor.flush())
            return BOMB[0]

    def log(name, line):
        with LOCK, open(os.path.join(LOGS, name), "a") as f:
            f.write(line + "\n")

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def fault(self):
            with open(FAULTS) as f:
                faults = json.load(f)
            for prefix, name in faults.items():
                if self.path.startswith(prefix):
                    return name
            return None

        def head(self, status, length, extra=()):
            self.send_response(status)
            self.send_header("Content-Length", str(length))
            for name, value in extra:
                self.send_header(name, value)
            self.end_headers()

        def endless(self, status, extra=()):
            self.send_response(status)
            self.send_header("Transfer-Encoding", "chunked")
            for name, value in extra:
                self.send_header(name, value)
            self.end_headers()
            chunk = b"%x\r\n" % 65536 + b" " * 65536 + b"\r\n"
            sent = 0
            try:
                while sent < (4 << 30):
                    self.wfile.write(chunk)
                    sent += 65536
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass
            log("sent.log", str(sent))
            self.close_connection = True

        def do_GET(self):
            fault = self.fault()
            log("requests.log", self.headers.get("Accept-Encoding", "-"))
            if fault == "gzip-bomb":
                body = bomb()
                self.head(200, len(body), [("Content-Encoding", "gzip")])
                self.wfile.write(body)
                return
            if fault == "endless-body":
                self.endless(200)
                return
            if fault == "redirect-endless-body":
                self.endless(302, [("Location", self.path)])
                return
            if fault == "not-modified":
                self.send_response(304)
                self.end_headers()
                return
            if fault == "redirect-without-location":
                self.head(302, 0)
                return
            path = os.path.join(ROOT, self.path.lstrip("/").split("?")[0])
            if fault in ("status-500", "status-503"):
                self.head(int(fault[-3:]), 0)
                return
            if fault == "redirect-loop":
                self.head(302, 0, [("Location", self.path)])
                return
            if fault == "missing" or not os.path.isfile(path):
                self.head(404, 0)
                return
            with open(path, "rb") as f:
                body = f.read()
            if fault == "invalid-json":
                body = b'{"format": 1, "release": '
            if fault == "wrong-bytes":
                body = body[:-1] + bytes([body[-1] ^ 0x20]) if body else b"x"
            if fault == "oversized":
                body = body + b" " * (8 << 20)
            if fault in ("truncated", "reset", "stall"):
                self.head(200, len(body))
                self.wfile.write(body[: max(1, len(body) // 2)])
                self.wfile.flush()
                if fault == "reset":
                    self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                if fault == "stall":
                    time.sleep(3600)
                self.close_connection = True
                return
            self.head(200, len(body))
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    server.serve_forever()
    """#
}

/// A self-signed certificate for `127.0.0.1` and `localhost` (P-256, valid for two days), made by `openssl` in a
/// temporary folder removed on deinit: what an HTTPS origin with a private certificate presents.
package final class TestCertificate {
    /// Where `openssl` is looked for.
    package static let openssl = ["/usr/bin/openssl", "/usr/local/bin/openssl"]
        .first(where: FileManager.default.isExecutableFile)

    /// The certificate (PEM); also the CA a client must trust.
    package let certificate: String
    /// Its private key (PEM).
    package let key: String
    private let folder: String

    /// Makes a new key and certificate.
    /// - Throws: `TimedOut` when `openssl` is not installed or fails (with its output).
    package init() throws {
        guard let openssl = Self.openssl else { throw TimedOut(description: "openssl is not installed") }
        folder = try FileSystem.makeTemporaryDirectory(prefix: "hs-tls-")
        certificate = folder + "/certificate.pem"
        key = folder + "/key.pem"
        let run = try ProcessRun.tool(openssl, [
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout", key, "-out", certificate,
        ])
        guard run.code == 0 else { throw TimedOut(description: "openssl failed:\n\(run.stdout)\(run.stderr)") }
    }

    deinit {
        try? FileSystem.removeRecursively(atPath: folder)
    }
}
