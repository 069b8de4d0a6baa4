import Foundation
import LinuxSystem

/// A private temporary folder holding a bundle, the daemon's socket path and its state folder; removed with
/// everything in it on deinit.
///
/// The bundle is `<root>/bundle`, so files the tests or the daemon put next to it (logs, staging sockets) are
/// outside the watched tree.
package final class Sandbox {
    /// The private folder.
    package let root: String
    /// The bundle folder.
    package var bundle: String { root + "/bundle" }
    /// The daemon's socket.
    package var socket: String { root + "/d.sock" }
    /// The daemon's state folder (the selected language).
    package var stateDirectory: String { root + "/state" }

    /// Copies `sample-bundle` and writes `extraFiles` (text by path relative to the bundle) over it.
    /// - Throws: what making the folder or copying fails with.
    package init(extraFiles: [String: String] = [:], prefix: String = "hs-e2e-") throws {
        root = try FileSystem.resolvedPath(FileSystem.makeTemporaryDirectory(prefix: prefix))
        try FileManager.default.copyItem(atPath: sampleBundlePath, toPath: bundle)
        for (path, text) in extraFiles { try write(text, to: path) }
    }

    /// A bundle holding only `tables` (text by path relative to the bundle), for benchmarks that need a
    /// bundle of a known size.
    package init(tables: [String: String], prefix: String = "hs-bench-") throws {
        root = try FileSystem.resolvedPath(FileSystem.makeTemporaryDirectory(prefix: prefix))
        try FileSystem.makeDirectory(atPath: bundle)
        for (path, text) in tables { try write(text, to: path) }
    }

    deinit {
        try? FileSystem.removeRecursively(atPath: root)
    }

    /// Saves `text` at `path` inside the bundle the way editors do: a hidden temporary file renamed over it.
    package func save(_ text: String, to path: String) throws {
        let target = bundle + "/" + path
        let directory = (target as NSString).deletingLastPathComponent
        let temporary = directory + "/." + (target as NSString).lastPathComponent + ".\(UUID().uuidString).tmp"
        try FileSystem.writeFile(Array(text.utf8), toPath: temporary)
        try FileSystem.rename(temporary, to: target)
    }

    /// Writes `text` at `path` inside the bundle in place, creating folders as needed.
    package func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: bundle + "/" + path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// The UTF-8 text of a bundle file.
    package func read(_ path: String) throws -> String {
        try String(contentsOfFile: bundle + "/" + path, encoding: .utf8)
    }
}
