import BundleChanges
import Dispatch
import LinuxSystem
import StringsFormat

/// What one look at a table file found.
enum TableRead: Sendable {
    /// A whole version of the file: parsed, or a lasting problem (it does not parse, it is too large, it leads
    /// outside the bundle); the last good table stays for a problem.
    case content(TableUpdate.Content)
    /// No such file.
    case absent
    /// The file changed while it was read (a writer rewriting it in place): read it again once it settles.
    case unsettled
    /// A whole-looking version, but another process had the file open for writing around the read (perhaps
    /// truncated and not yet written): published only once the file has also been quiet for the settle time.
    case writerOpen(TableUpdate.Content)
    /// Empty while another process had it open for writing: exactly what a writer that truncated the file and has
    /// not written yet leaves, however long it waits, so never taken as a version. Read again until the writer
    /// writes or closes it.
    case emptyWhileWritten
    /// A passing failure (out of descriptors or memory): read it again after a while.
    case transient(FileProblem)
}

/// Reads and parses table files, in parallel when there are many (a full scan of hundreds of files).
struct TableReader: Sendable {
    let root: String
    let maximumFileSize: Int
    /// Batches at least this large are parsed on several threads.
    let parallelThreshold: Int
    /// Whether a file whose real path is outside the root is read.
    let followsExternalSymlinks: Bool
    /// Compiles catalogs, reusing the languages a save did not change.
    let catalogs = CatalogCompiler()

    /// The errors that say nothing about the file, only about this moment.
    static let transientErrors: Set<Errno> = [
        .tooManyOpenFiles, .tooManyOpenFilesInSystem, .noMemory, .interrupted, .wouldBlock,
    ]

    /// Reads `table` now.
    func read(_ table: TableFile) -> TableRead {
        let path = root + "/" + table.path
        let file = table.path
        let snapshot: FileSystem.Snapshot
        do {
            snapshot = try FileSystem.snapshot(atPath: path, maximumSize: maximumFileSize)
        } catch {
            switch error.errno {
            case .noSuchFileOrDirectory, .notDirectory:
                if table.isCatalog { catalogs.forget(file) }
                return .absent
            case let errno where Self.transientErrors.contains(errno):
                return .transient(FileProblem(file: file, message: "cannot read it now: \(errno); trying again"))
            case .isDirectory:
                return .content(.failed(FileProblem(file: file, message: "is a directory, not a strings file")))
            case .fileTooLarge:
                return .content(.failed(FileProblem(
                    file: file,
                    message: "the file is larger than the size cap of \(maximumFileSize) bytes (--max-file-size)"
                )))
            default:
                return .content(.failed(FileProblem(file: file, message: "cannot read: \(error.errno)")))
            }
        }
        guard snapshot.before.isSameVersion(as: snapshot.after) else { return .unsettled }
        guard followsExternalSymlinks || isInsideRoot(snapshot.resolvedPath) else {
            return .content(.failed(FileProblem(
                file: file,
                message: "leads outside the bundle, to \(DisplayText.escaped(snapshot.resolvedPath, limit: 200)); "
                    + "not read (--follow-external-symlinks allows it)"
            )))
        }
        if snapshot.hadWriter == true, snapshot.bytes.isEmpty { return .emptyWhileWritten }
        let content: TableUpdate.Content
        do {
            content = switch BundleNames.format(ofFile: table.name) {
            case .catalog: .catalog(try catalogs.tables(reading: snapshot.bytes, file: file))
            case .stringsdict: .parsed(TableContent(rules: try StringsdictFile.parse(snapshot.bytes)))
            case .strings, nil: .parsed(TableContent(strings: try StringsFile.parse(snapshot.bytes)))
            }
        } catch {
            content = .failed(FileProblem(file: file, line: error.line, column: error.column, message: error.reason))
        }
        return snapshot.hadWriter == true ? .writerOpen(content) : .content(content)
    }

    /// Whether `path` (with every link resolved) is the root or below it.
    func isInsideRoot(_ path: String) -> Bool {
        path == root || path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    /// Reads every file, keeping the order.
    func read(_ files: [TableFile]) -> [TableRead] {
        guard files.count >= parallelThreshold else { return files.map(read) }
        let results = ResultSlots<TableRead>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results.set(index, read(files[index]))
        }
        return results.values
    }
}

extension FileSystem.Status {
    /// Whether two looks at one open file saw the same content: same size and the same modification and change
    /// times (a write in between changes them).
    func isSameVersion(as other: FileSystem.Status) -> Bool {
        size == other.size && modified == other.modified && changed == other.changed
    }
}

/// Slots filled from several threads at distinct indices, read once all writers are done.
///
/// `@unchecked Sendable`: each index is written by exactly one `concurrentPerform` iteration through
/// a fixed buffer, and read only after `concurrentPerform` returns, which orders the writes first.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let storage: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        storage = .allocate(capacity: count)
        storage.initialize(repeating: nil)
    }

    deinit {
        storage.deinitialize()
        storage.deallocate()
    }

    func set(_ index: Int, _ value: Value) { storage[index] = value }

    var values: [Value] { storage.map { $0! } }
}
