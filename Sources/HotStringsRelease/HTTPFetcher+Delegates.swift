import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import LinuxSystem
import Synchronization

// The URLSession delegates behind `HTTPFetcher`: one router per session, one delegate per transfer, the body sink.

/// The delegate queue of a fetcher's session: runs each delegate call at once, on the thread that makes it
/// (URLSession's work queue, where libcurl runs), instead of queueing it. A body piece is then handled before
/// libcurl reads the next, so a cap or a slow disk holds the reading back; queued, pieces pile up in memory as
/// fast as the network brings them.
///
/// The delegate calls must therefore not wait for URLSession: a task is cancelled from another thread
/// (`TransferDelegate.cancelSoon`), as `URLSessionTask.cancel()` waits for the work queue.
///
/// `@unchecked Sendable`: it adds no state to `OperationQueue`.
final class InlineQueue: OperationQueue, @unchecked Sendable {
    override func addOperation(_ block: @Sendable @escaping () -> Void) {
        block()
    }
}

/// The delegate of a fetcher's session: hands each task's callbacks to that request's `TransferDelegate`, and
/// cancels what comes for a task whose request gave up waiting.
///
/// `@unchecked Sendable`: the only stored state that changes is inside the `Mutex`.
final class TransferRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
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
final class TransferDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
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
struct UndeliveredWatch {
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
