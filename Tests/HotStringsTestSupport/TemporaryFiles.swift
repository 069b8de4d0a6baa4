import Foundation
import LinuxSystem

/// Runs `body` with a new private folder `/tmp/<prefix>.XXXXXX`, removed afterwards with everything in it.
/// - Throws: what making the folder throws, or what `body` throws.
package func withTemporaryDirectory<Result>(prefix: String = "hotstrings-tests",
                                            _ body: (String) throws -> Result) throws -> Result {
    let directory = try FileSystem.makeTemporaryDirectory(prefix: prefix)
    defer { try? FileSystem.removeRecursively(atPath: directory) }
    return try body(directory)
}

/// Runs `body` with a temporary folder holding `files` (UTF-8 text by path relative to the folder), removed
/// afterwards.
/// - Throws: what making the folder or writing a file throws, or what `body` throws.
package func withFiles<Result>(_ files: [String: String], _ body: (String) throws -> Result) throws -> Result {
    try withFiles(bytes: files.mapValues { Array($0.utf8) }, body)
}

/// Runs `body` with a temporary folder holding `files` (raw bytes by path relative to the folder), removed
/// afterwards.
/// - Throws: what making the folder or writing a file throws, or what `body` throws.
package func withFiles<Result>(bytes files: [String: [UInt8]], _ body: (String) throws -> Result) throws -> Result {
    try withTemporaryDirectory { root in
        for (relativePath, contents) in files {
            let url = URL(fileURLWithPath: root).appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
            try Data(contents).write(to: url)
        }
        return try body(root)
    }
}
