import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LinuxSystem
import Synchronization

/// GET requests through Foundation's `URLSession` with the limits a puller needs: TLS verified by the system
/// (no certificate exceptions anywhere), redirects followed up to a limit, an idle timeout and a total timeout,
/// no caching and no cookies, and a size cap that cancels a body as soon as it grows past it.
///
/// Memory stays near the cap whatever the origin sends. Requests ask for `Accept-Encoding: identity` (it
/// replaces libcurl's `deflate, gzip, br, zstd`), and a response with any other `Content-Encoding` is refused
/// before its body is read: libcurl would inflate it, a small body to gigabytes. Bodies are handed over as they
/// arrive, to memory or to a file, on URLSession's own thread (`InlineQueue`): libcurl reads no more while a
/// piece is handled, so the cap stops the reading instead of a queue of pieces piling up behind it.
///
/// The body of a 3xx answer never reaches a delegate: URLSession keeps it in memory until it ends (to hand it over
/// if the redirect is not followed), and the task's progress is not updated on Linux. When the delegate has heard
/// nothing for a second, the requesting thread therefore compares, every 100 ms, what the kernel says the
/// connections to the origin received with what reached the delegate, and ends the request once more than
/// `maximumUndeliveredBytes` arrived that way. Cancelling is not enough there: URLSession
/// appends each piece to a copy of what it holds (quadratic), falls behind a fast origin, and its work queue, which
/// `cancel()` waits for, is never free again. The connection is therefore shut down under it (`ConnectionSevering`):
/// the transfer fails at once, and an origin streaming an endless redirect body costs about the cap in memory
/// instead of hanging the request, and a shutdown that cancels it, for ever.
package final class HTTPFetcher: Sendable {
    /// The limits of one fetcher.
    package struct Limits: Sendable {
        /// Redirects followed per request (5 by default); one more is an error.
        package var maximumRedirects = 5
        /// Longest wait for the next bytes of a response (10 s by default).
        package var idleTimeout: Duration = .seconds(10)
        /// Longest time for a whole request (120 s by default).
        package var totalTimeout: Duration = .seconds(120)
        /// Most body bytes libcurl may hold that never reach the delegate: the body of a redirect or a 304, which
        /// URLSession keeps in memory until it ends (1 MiB by default; a redirect's body is normally a line of HTML).
        package var maximumUndeliveredBytes = 1 << 20

        /// The defaults.
        package init() {}
    }

    /// What a GET returned.
    package struct Response: Sendable {
        /// The HTTP status (200, 304...).
        package var status: Int
        /// The body (empty for 304).
        package var body: [UInt8]
        /// The `ETag` header, if any.
        package var entityTag: String?
        /// The `Last-Modified` header, if any.
        package var lastModified: String?
    }

    private let limits: Limits
    private let counters = Mutex((requests: 0, bytes: 0))
    /// Whether `cancel()` was called, and the task in flight, for `cancel()` to end.
    private let inFlight = Mutex<(isCancelled: Bool, task: URLSessionDataTask?)>((false, nil))
    /// One session for every request of this fetcher: a session per request costs a curl multi handle and its
    /// dispatch sources each time, whose teardown races are a known crash family of Linux's URLSession, and it
    /// cannot reuse connections.
    private let session: URLSession
    private let transfers: TransferRouter

    /// A fetcher with `limits`.
    package init(limits: Limits = Limits()) {
        self.limits = limits
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.timeoutIntervalForRequest = Self.seconds(limits.idleTimeout)
        configuration.timeoutIntervalForResource = Self.seconds(limits.totalTimeout)
        transfers = TransferRouter(maximumRedirects: limits.maximumRedirects)
        // The session holds its delegate until it is invalidated (deinit).
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: InlineQueue())
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Requests made and body bytes received so far.
    package var traffic: (requests: Int, bytes: Int) { counters.withLock { $0 } }

    /// Ends the request in flight, if any, and makes every later `get` fail at once: for a shutdown that must
    /// not wait for a slow origin. A pull whose request is cancelled installs nothing.
    package func cancel() {
        let task = inFlight.withLock { state -> URLSessionDataTask? in
            state.isCancelled = true
            return state.task
        }
        guard let task else { return }
        if let url = task.originalRequest?.url { Self.sever(url) }
        task.cancel()
    }

    /// GETs `url`, sending `If-None-Match` / `If-Modified-Since` when given, reading at most `maximumSize` bytes.
    /// - Throws: `ReleaseError.transfer` naming the URL (credentials redacted) and the reason: a status other than
    ///   200 and 304 (304 only when a validator was sent), a body over the cap, an encoded body, too many
    ///   redirects, a redirect without a `Location`, a timeout, a reset.
    package func get(_ url: URL, entityTag: String? = nil, lastModified: String? = nil, maximumSize: Int)
        throws(ReleaseError) -> Response {
        let sink = BodySink(file: nil)
        let response = try fetch(url, entityTag: entityTag, lastModified: lastModified, maximumSize: maximumSize,
                                 into: sink)
        return Response(status: response.statusCode, body: sink.bytes,
                        entityTag: response.value(forHTTPHeaderField: "ETag"),
                        lastModified: response.value(forHTTPHeaderField: "Last-Modified"))
    }

    /// GETs `url` into a new file at `path` as the body arrives (at most `maximumSize` bytes, flushed to the disk
    /// before this returns), hashing it on the way: the body is never whole in memory.
    /// - Returns: the body's size and SHA-256 (64 lowercase hex digits).
    /// - Throws: as `get`, and `ReleaseError.system` when the file cannot be created or written. A file that was
    ///   created stays, whole or not: it is in a staging folder its caller removes.
    package func download(_ url: URL, maximumSize: Int, toFile path: String) throws(ReleaseError)
        -> (size: Int, sha256: String) {
        guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o644]),
              let file = FileHandle(forWritingAtPath: path) else { throw .system("cannot create \(path)") }
        defer { try? file.close() }
        let sink = BodySink(file: file)
        _ = try fetch(url, entityTag: nil, lastModified: nil, maximumSize: maximumSize, into: sink)
        do {
            try file.synchronize()
        } catch {
            throw .system("flush \(path): \(error)")
        }
        return sink.digest
    }

    private func fetch(_ url: URL, entityTag: String?, lastModified: String?, maximumSize: Int,
                       into sink: BodySink) throws(ReleaseError) -> HTTPURLResponse {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = Self.seconds(limits.idleTimeout)
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let entityTag { request.setValue(entityTag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        let name = RedactedURL.text(url)
        let delegate = TransferDelegate(maximumSize: maximumSize, maximumRedirects: limits.maximumRedirects,
                                        sink: sink)
        let task = session.dataTask(with: request)
        let isCancelled = inFlight.withLock { state in
            if !state.isCancelled { state.task = task }
            return state.isCancelled
        }
        guard !isCancelled else { throw .transfer(url: name, reason: "cancelled (shutting down)") }
        transfers.register(delegate, for: task.taskIdentifier)
        counters.withLock { $0.requests += 1 }
        task.resume()
        // The total timeout bounds the task; a little more here only guards against a delegate never called.
        // The semaphore blocks this thread, never a pool thread's: the callbacks come on URLSession's own queue.
        let waited = waitWatchingUndelivered(delegate, task: task,
                                             until: .now() + Self.seconds(limits.totalTimeout) + 5)
        inFlight.withLock { state in
            if state.task === task { state.task = nil }
        }
        transfers.remove(task.taskIdentifier)
        if waited != .success {
            Self.sever(url)
            task.cancel()
        }
        let outcome = delegate.outcome
        counters.withLock { $0.bytes += outcome.received }
        if inFlight.withLock({ $0.isCancelled }) { throw .transfer(url: name, reason: "cancelled (shutting down)") }
        guard waited == .success else { throw .transfer(url: name, reason: "no answer within the total timeout") }
        if let failure = outcome.failure { throw .transfer(url: name, reason: failure) }
        guard let response = outcome.response else { throw .transfer(url: name, reason: "no HTTP response") }
        let sentValidator = entityTag != nil || lastModified != nil
        guard response.statusCode == 200 || (response.statusCode == 304 && sentValidator) else {
            throw .transfer(url: name, reason: Self.refusal(of: response, redirects: outcome.redirects,
                                                            maximumRedirects: limits.maximumRedirects))
        }
        return response
    }

    /// Waits for `delegate` to be done, and ends `task` when its connections received more than
    /// `maximumUndeliveredBytes` that never reached the delegate (see the type's comment).
    private func waitWatchingUndelivered(_ delegate: TransferDelegate, task: URLSessionDataTask,
                                         until deadline: DispatchTime) -> DispatchTimeoutResult {
        guard let url = task.originalRequest?.url else { return delegate.done.wait(timeout: deadline) }
        var watch = UndeliveredWatch()
        var isSevered = false
        while true {
            if delegate.done.wait(timeout: min(deadline, .now() + .milliseconds(100))) == .success { return .success }
            if DispatchTime.now() >= deadline { return .timedOut }
            // Quiet delegates only: scanning the process's sockets costs a little, and a body that reaches the
            // delegate is capped there.
            guard !isSevered, delegate.quiet >= .seconds(1) else { continue }
            let received = Self.peers(of: url).reduce(into: [UInt64: UInt64]()) { counts, peer in
                counts.merge(ConnectionSevering.receivedBytes(toHost: peer.host, port: peer.port)) { $1 }
            }
            let undelivered = watch.undelivered(received: received, delivered: delegate.outcome.received)
            if undelivered > limits.maximumUndeliveredBytes {
                delegate.failUndelivered(task, maximumUndelivered: limits.maximumUndeliveredBytes)
                Self.sever(url)
                isSevered = true
            }
        }
    }

    /// The peers a transfer of `url` may be connected to: its origin, and the proxy libcurl takes from the
    /// environment for its scheme (libcurl's names; port 1080 when none is given).
    private static func peers(of url: URL) -> [(host: String, port: Int)] {
        guard let host = url.host else { return [] }
        let isSecure = url.scheme?.lowercased() == "https"
        var peers = [(host, url.port ?? (isSecure ? 443 : 80))]
        let names = isSecure ? ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
                             : ["http_proxy", "all_proxy", "ALL_PROXY"]
        for name in names {
            guard let value = ProcessInfo.processInfo.environment[name], !value.isEmpty,
                  let proxy = URL(string: value.contains("://") ? value : "http://" + value),
                  let proxyHost = proxy.host else { continue }
            peers.append((proxyHost, proxy.port ?? 1080))
        }
        return peers
    }

    /// Shuts down the connections a stuck transfer of `url` may be reading (`peers(of:)`).
    private static func sever(_ url: URL) {
        for peer in peers(of: url) { ConnectionSevering.shutDownConnections(toHost: peer.host, port: peer.port) }
    }

    /// Why a response other than 200 (or 304 to a conditional request) is refused, saying what the origin did.
    private static func refusal(of response: HTTPURLResponse, redirects: Int, maximumRedirects: Int) -> String {
        let status = response.statusCode
        guard (300..<400).contains(status) else { return "HTTP status \(status)" }
        if status == 304 { return "answered 304 Not Modified to a request without validators" }
        if redirects > maximumRedirects {
            return "redirected more than \(maximumRedirects) times (last status \(status))"
        }
        guard let location = response.value(forHTTPHeaderField: "Location"), !location.isEmpty else {
            return "answered \(status) without a Location header"
        }
        return "answered \(status) with a Location that was not followed: \(RedactedURL.text(location))"
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}

/// The delegate queue of a fetcher's session: runs each delegate call at once, on the thread that makes it
/// (URLSession's work queue, where libcurl runs), instead of queueing it. A body piece is then handled before
/// libcurl reads the next, so a cap or a slow disk holds the reading back; queued, pieces pile up in memory as
/// fast as the network brings them.
///
/// The delegate calls must therefore not wait for URLSession: a task is cancelled from another thread
/// (`TransferDelegate.cancelSoon`), as `URLSessionTask.cancel()` waits for the work queue.
///
/// `@unchecked Sendable`: it adds no state to `OperationQueue`.
private final class InlineQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @Sendable @escaping () -> Void) {
        block()
    }
}

/// The delegate of a fetcher's session: hands each task's callbacks to that request's `TransferDelegate`, and
/// cancels what comes for a task whose request gave up waiting.
///
/// `@unchecked Sendable`: the only stored state that changes is inside the `Mutex`.
private final class TransferRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let transfers = Mutex<[Int: TransferDelegate]>([:])
    let maximumRedirects: Int

    init(maximumRedirects: Int) {
        self.maximumRedirects = maximumRedirects
    }

    func register(_ transfer: TransferDelegate, for task: Int) { transfers.withLock { $0[task] = transfer } }
    func remove(_ task: Int) { _ = transfers.withLock { $0.removeValue(forKey: task) } }
    private func transfer(_ task: URLSessionTask) -> TransferDelegate? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        guard let transfer = transfer(dataTask) else {
            TransferDelegate.cancelSoon(dataTask)
            return completionHandler(.cancel)
        }
        transfer.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask) else { return TransferDelegate.cancelSoon(dataTask) }
        transfer.urlSession(session, dataTask: dataTask, didReceive: data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        guard let transfer = transfer(task) else { return completionHandler(nil) }
        transfer.urlSession(session, task: task, willPerformHTTPRedirection: response, newRequest: request,
                            completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        transfer(task)?.urlSession(session, task: task, didCompleteWithError: error)
    }
}

/// Where a body goes as it arrives: memory (a manifest) or a file (a release's file, hashed on the way).
///
/// `@unchecked Sendable`: `FileHandle` is used only by the delegate call that holds the `Mutex`.
final class BodySink: @unchecked Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var size = 0
        var hash = SHA256()
    }

    private let file: FileHandle?
    private let state = Mutex(State())

    /// A sink writing to `file`, or keeping the body in memory when nil.
    init(file: FileHandle?) {
        self.file = file
    }

    /// Takes the next piece; a reason when it cannot be written.
    func append(_ data: Data) -> String? {
        state.withLock { state -> String? in
            state.size += data.count
            guard let file else {
                state.bytes.append(contentsOf: data)
                return nil
            }
            state.hash.update(data)
            do {
                try file.write(contentsOf: data)
                return nil
            } catch {
                return "cannot write the body to the disk: \(error)"
            }
        }
    }

    /// The body kept in memory.
    var bytes: [UInt8] { state.withLock { $0.bytes } }

    /// The size and SHA-256 of what was written.
    var digest: (size: Int, sha256: String) {
        state.withLock { state in
            var hash = state.hash
            return (state.size, SHA256.hex(hash.finalize()))
        }
    }
}

/// What one request collects: the response, the body handed to its sink under the cap, the redirects counted.
///
/// `@unchecked Sendable`: URLSession calls it (through `TransferRouter`) on its work queue, one call at a time;
/// every stored property that changes is inside the `Mutex`, and `done` is a semaphore.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Outcome: Sendable {
        var response: HTTPURLResponse?
        /// Body bytes URLSession handed over, including any past the cap before the cancel took effect.
        var received = 0
        var failure: String?
        var redirects = 0
        var isCancelling = false
        /// When URLSession last called for this request (or when it was made).
        var lastHeard = ContinuousClock.now
    }

    let maximumSize: Int
    let maximumRedirects: Int
    let sink: BodySink
    let done = DispatchSemaphore(value: 0)
    private let state = Mutex(Outcome())

    init(maximumSize: Int, maximumRedirects: Int, sink: BodySink) {
        self.maximumSize = maximumSize
        self.maximumRedirects = maximumRedirects
        self.sink = sink
    }

    var outcome: Outcome { state.withLock { $0 } }

    /// Cancels `task` from another thread: the delegate calls run on URLSession's work queue, which
    /// `URLSessionTask.cancel()` waits for.
    static func cancelSoon(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    /// Records `failure` (the first one wins) and cancels `task` once.
    private func fail(_ task: URLSessionTask, _ failure: String) {
        let isFirst = state.withLock { outcome -> Bool in
            if outcome.failure == nil { outcome.failure = failure }
            defer { outcome.isCancelling = true }
            return !outcome.isCancelling
        }
        if isFirst { Self.cancelSoon(task) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        state.withLock { outcome in
            outcome.response = http
            outcome.lastHeard = .now
        }
        // URLSession on Linux ignores the disposition: a refusal cancels the task.
        completionHandler(.allow)
        if let encoding = http?.value(forHTTPHeaderField: "Content-Encoding"),
           encoding.lowercased() != "identity" {
            fail(dataTask, "answered with Content-Encoding \(encoding) to a request for identity: refused unread "
                + "(an encoded body can inflate far past the cap)")
        } else if response.expectedContentLength > Int64(maximumSize) {
            fail(dataTask, "the body is \(response.expectedContentLength) bytes, over the cap of \(maximumSize)")
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let verdict = state.withLock { outcome -> (write: Bool, failure: String?) in
            outcome.received += data.count
            outcome.lastHeard = .now
            guard outcome.failure == nil else { return (false, nil) }
            guard outcome.received <= maximumSize else {
                return (false, "the body grew over the cap of \(maximumSize) bytes")
            }
            return (true, nil)
        }
        if let failure = verdict.failure {
            fail(dataTask, failure)
        } else if verdict.write, let failure = sink.append(data) {
            fail(dataTask, failure)
        }
    }

    /// How long since URLSession last called this delegate for the request (its start, a response, a piece of
    /// body, a redirect).
    var quiet: Duration { ContinuousClock.now - state.withLock { $0.lastHeard } }

    /// Records that a body the delegate never sees (a redirect's or a 304's) grew over `maximumUndelivered`,
    /// and cancels `task`.
    func failUndelivered(_ task: URLSessionTask, maximumUndelivered: Int) {
        fail(task, "the body of a redirect (or 304) answer grew over the cap of \(maximumUndelivered) bytes: "
            + "refused (URLSession keeps such a body in memory)")
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let isAllowed = state.withLock { outcome in
            outcome.redirects += 1
            outcome.lastHeard = .now
            return outcome.redirects <= maximumRedirects
        }
        completionHandler(isAllowed ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        state.withLock { outcome in
            if let error, outcome.failure == nil { outcome.failure = Self.describe(error) }
            if outcome.response == nil, let http = task.response as? HTTPURLResponse { outcome.response = http }
        }
        done.signal()
    }

    /// Whether libcurl's message `text` is about TLS: its certificate checks ("SSL certificate problem: …", "SSL:
    /// no alternative certificate subject name matches …") and handshake ("OpenSSL SSL_connect: …").
    static func isTLSFailure(_ text: String) -> Bool {
        text.hasPrefix("SSL") || text.contains("SSL_connect") || text.contains("TLS")
    }

    private static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        guard nsError.domain == NSURLErrorDomain else { return nsError.localizedDescription }
        switch nsError.code {
        case NSURLErrorTimedOut: return "timed out (no data for the idle timeout, or over the total timeout)"
        case NSURLErrorNetworkConnectionLost: return "the connection was lost before the body was complete"
        case NSURLErrorCannotConnectToHost: return "cannot connect to the host"
        case NSURLErrorServerCertificateUntrusted, NSURLErrorServerCertificateHasBadDate,
             NSURLErrorServerCertificateHasUnknownRoot, NSURLErrorServerCertificateNotYetValid,
             NSURLErrorSecureConnectionFailed:
            return "TLS verification failed: \(nsError.localizedDescription)"
        case NSURLErrorUnknown where isTLSFailure(nsError.localizedDescription):
            // corelibs-foundation reports libcurl's TLS failures (an untrusted certificate, a name that does not
            // match) as an unknown error carrying curl's message: "SSL certificate problem: self-signed certificate".
            return "TLS verification failed: \(nsError.localizedDescription)"
        case NSURLErrorHTTPTooManyRedirects: return "too many redirects"
        default: return "\(nsError.localizedDescription) (URL error \(nsError.code))"
        }
    }
}

/// What the kernel says a request's connections received beyond what reached its delegate.
///
/// A connection already open at the first look (kept alive from an earlier request) counts from what it had then;
/// one opened later counts from zero. Another request to the same origin from this process at the same time would
/// count too: it can only end this one early, as a failed pull that the next one retries.
private struct UndeliveredWatch {
    private var baselines: [UInt64: UInt64]?
    private var deliveredAtFirstLook = 0

    /// The bytes received since the first look and not delivered; 0 at the first look.
    mutating func undelivered(received: [UInt64: UInt64], delivered: Int) -> Int {
        guard let baselines else {
            baselines = received
            deliveredAtFirstLook = delivered
            return 0
        }
        let grown = received.reduce(0) { sum, connection in
            let (inode, bytes) = connection
            return sum + Int(clamping: bytes - min(bytes, baselines[inode] ?? 0))
        }
        return grown - (delivered - deliveredAtFirstLook)
    }
}
