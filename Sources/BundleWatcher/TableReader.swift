import Dispatch
import LinuxSystem
import StringsFormat

/// Reads and parses table files, in parallel when there are many (a full scan of hundreds of files).
struct TableReader: Sendable {
    let root: String
    let maximumFileSize: Int
    /// Batches at least this large are parsed on several threads.
    let parallelThreshold: Int

    /// Reads `location` now. `nil` means the file does not exist (and never did, as far as the reader knows).
    func read(_ location: TableLocation) -> FileChange.Content? {
        let path = root + "/" + location.relativePath
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readFile(atPath: path, maximumSize: maximumFileSize)
        } catch {
            switch error.errno {
            case .noSuchFileOrDirectory, .notDirectory:
                return nil
            case .isDirectory:
                return .failed(FileProblem(file: location.relativePath, message: "is a directory, not a strings file"))
            case .fileTooLarge:
                return .failed(FileProblem(
                    file: location.relativePath,
                    message: "the file is larger than the size cap of \(maximumFileSize) bytes (--max-file-size)"
                ))
            default:
                return .failed(FileProblem(file: location.relativePath, message: "cannot read: \(error.errno)"))
            }
        }
        do {
            return .parsed(try StringsFile.parse(bytes))
        } catch {
            return .failed(FileProblem(
                file: location.relativePath, line: error.line, column: error.column, message: error.reason
            ))
        }
    }

    /// Reads every location, keeping the order; absent files are `nil`.
    func read(_ locations: [TableLocation]) -> [FileChange.Content?] {
        guard locations.count >= parallelThreshold else { return locations.map(read) }
        let results = ResultSlots<FileChange.Content?>(count: locations.count)
        DispatchQueue.concurrentPerform(iterations: locations.count) { index in
            results.set(index, read(locations[index]))
        }
        return results.values
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
