import StringsFormat

/// Why a release could not be published, fetched, verified or installed. Every case names what it is about, so
/// that the log, `status` and the `error` event say which file and what was expected.
package enum ReleaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// `manifest.json` is not a manifest this code reads.
    case invalidManifest(String)
    /// A table of the release does not parse (the problem holds its path, line and column).
    case invalidTable(FileProblem)
    /// A file's size is not the manifest's.
    case sizeMismatch(path: String, expected: Int, got: Int)
    /// A file's SHA-256 is not the manifest's.
    case digestMismatch(path: String, expected: String, got: String)
    /// An HTTP request failed: the URL and the reason (status, timeout, reset, too large, too many redirects).
    case transfer(url: String, reason: String)
    /// A local file operation failed.
    case system(String)
    /// The bundle is not one releases can be installed into (it holds folders of its own), or has no release.
    case unmanagedBundle(String)

    package var description: String {
        switch self {
        case .invalidManifest(let reason): "invalid manifest: \(reason)"
        case .invalidTable(let problem): "\(problem)"
        case .sizeMismatch(let path, let expected, let got):
            "\(path): size mismatch: expected \(expected) bytes, got \(got)"
        case .digestMismatch(let path, let expected, let got):
            "\(path): SHA-256 mismatch: expected \(expected), got \(got)"
        case .transfer(let url, let reason): "\(url): \(reason)"
        case .system(let reason): reason
        case .unmanagedBundle(let reason): reason
        }
    }

    /// The problem as the store reports it: the file it is about (the manifest or the URL when no file is), its
    /// line and column when it is a parse error.
    package var problem: FileProblem {
        switch self {
        case .invalidTable(let problem): problem
        case .sizeMismatch(let path, _, _), .digestMismatch(let path, _, _):
            FileProblem(file: path, message: "release not installed: \(description)")
        case .transfer(let url, _): FileProblem(file: url, message: "release not installed: \(description)")
        default: FileProblem(file: "manifest.json", message: "release not installed: \(description)")
        }
    }
}
