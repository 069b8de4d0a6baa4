import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// GET requests through Foundation's `URLSession` with the limits a puller needs: TLS verified by the system
/// (no certificate exceptions anywhere), redirects followed up to a limit, an idle timeout and a total timeout,
/// no caching and no cookies, and a size cap that cancels a body as soon as it grows past it.
package final class HTTPFetcher: Sendable {
    /// The limits of one fetcher.
    package struct Limits: Sendable {
        /// Redirects followed per request (5 by default); one more is an error.
        package var maximumRedirects = 5
        /// Longest wait for the next bytes of a response (10 s by default).
        package var idleTimeout: Duration = .seconds(10)
        /// Longest time for a whole request (120 s by default).
        package var totalTimeout: Duration = .seconds(120)

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
        session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)
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
        task?.cancel()
    }

    /// GETs `url`, sending `If-None-Match` / `If-Modified-Since` when given, reading at most `maximumSize` bytes.
    /// - Throws: `ReleaseError.transfer` naming the URL and the reason: a status other than 200 and 304 (304
    ///   only when a validator was sent), a body over the cap, too many redirects, a timeout, a reset.
    package func get(_ url: URL, entityTag: String? = nil, lastModified: String? = nil, maximumSize: Int)
        throws(ReleaseError) -> Response {
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.timeoutInterval = Self.seconds(limits.idleTimeout)
        if let entityTag { request.setValue(entityTag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        let name = url.absoluteString
        let delegate = TransferDelegate(maximumSize: maximumSize, maximumRedirects: limits.maximumRedirects)
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
        let waited = delegate.done.wait(timeout: .now() + Self.seconds(limits.totalTimeout) + 5)
        inFlight.withLock { state in
            if state.task === task { state.task = nil }
        }
        transfers.remove(task.taskIdentifier)
        if waited != .success { task.cancel() }
        let outcome = delegate.outcome
        counters.withLock { $0.bytes += outcome.body.count }
        if inFlight.withLock({ $0.isCancelled }) { throw .transfer(url: name, reason: "cancelled (shutting down)") }
        guard waited == .success else { throw .transfer(url: name, reason: "no answer within the total timeout") }
        if let failure = outcome.failure { throw .transfer(url: name, reason: failure) }
        guard let response = outcome.response else { throw .transfer(url: name, reason: "no HTTP response") }
        let sentValidator = entityTag != nil || lastModified != nil
        guard response.statusCode == 200 || (response.statusCode == 304 && sentValidator) else {
            let reason = (300..<400).contains(response.statusCode)
                ? "redirected more than \(limits.maximumRedirects) times (last status \(response.statusCode))"
                : "HTTP status \(response.statusCode)"
            throw .transfer(url: name, reason: reason)
        }
        return Response(status: response.statusCode, body: outcome.body,
                        entityTag: response.value(forHTTPHeaderField: "ETag"),
                        lastModified: response.value(forHTTPHeaderField: "Last-Modified"))
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
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
        guard let transfer = transfer(dataTask) else { return completionHandler(.cancel) }
        transfer.urlSession(session, dataTask: dataTask, didReceive: response, completionHandler: completionHandler)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask) else { return dataTask.cancel() }
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

/// What one request collects: the body under the cap, the redirects counted.
///
/// `@unchecked Sendable`: URLSession calls it (through `TransferRouter`) on its delegate queue, one call at a
/// time; every stored property that changes is inside the `Mutex`, and `done` is a semaphore.
private final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    struct Outcome: Sendable {
        var response: HTTPURLResponse?
        var body: [UInt8] = []
        var failure: String?
        var redirects = 0
    }

    let maximumSize: Int
    let maximumRedirects: Int
    let done = DispatchSemaphore(value: 0)
    private let state = Mutex(Outcome())

    init(maximumSize: Int, maximumRedirects: Int) {
        self.maximumSize = maximumSize
        self.maximumRedirects = maximumRedirects
    }

    var outcome: Outcome { state.withLock { $0 } }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void) {
        let http = response as? HTTPURLResponse
        let tooLarge = response.expectedContentLength > Int64(maximumSize)
        state.withLock { outcome in
            outcome.response = http
            if tooLarge {
                outcome.failure = "the body is \(response.expectedContentLength) bytes, over the cap of \(maximumSize)"
            }
        }
        completionHandler(tooLarge ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let isOver = state.withLock { outcome in
            guard outcome.failure == nil else { return true }
            guard outcome.body.count + data.count <= maximumSize else {
                outcome.failure = "the body grew over the cap of \(maximumSize) bytes"
                return true
            }
            outcome.body.append(contentsOf: data)
            return false
        }
        if isOver { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        let isAllowed = state.withLock { outcome in
            outcome.redirects += 1
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
