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
    /// A puller with trusted keys refused the manifest: no signature, a bad one, an unknown key, a rollback, an
    /// expired manifest, or other content under an installed sequence. `file` is the manifest's or signature's URL.
    case untrusted(file: String, reason: String)
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
        case .untrusted(let file, let reason): "\(file): \(reason)"
        case .unmanagedBundle(let reason): reason
        }
    }

    /// What the message of every `problem` starts with.
    package static let problemPrefix = "release not installed: "

    /// The problem as `status` and the `error` event report it: the file it is about (the table with its line and
    /// column, the file whose size or digest is wrong, the URL of a failed request, else `manifest.json`), and a
    /// message that starts with "release not installed".
    package var problem: FileProblem {
        let prefix = Self.problemPrefix
        switch self {
        case .invalidTable(let problem):
            return FileProblem(file: problem.file, line: problem.line, column: problem.column,
                               message: prefix + problem.message)
        case .sizeMismatch(let path, let expected, let got):
            return FileProblem(file: path, message: prefix + "size mismatch: expected \(expected) bytes, got \(got)")
        case .digestMismatch(let path, let expected, let got):
            return FileProblem(file: path, message: prefix + "SHA-256 mismatch: expected \(expected), got \(got)")
        case .transfer(let url, let reason):
            return FileProblem(file: url, message: prefix + reason)
        case .untrusted(let file, let reason):
            return FileProblem(file: file, message: prefix + reason)
        default:
            return FileProblem(file: "manifest.json", message: prefix + description)
        }
    }
}
