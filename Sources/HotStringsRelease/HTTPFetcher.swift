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
