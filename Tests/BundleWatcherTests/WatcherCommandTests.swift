import Dispatch
import Foundation
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// The real `hotstrings watch` run as an unprivileged user, for what root cannot provoke: an unreadable file.
@Suite struct WatcherCommandTests {
    @Test func unreadableFileIsAnErrorEventAndSIGTERMExitsCleanly() throws {
        if let reason = otherUserUnavailable {
            // BundleWatcherTests does not depend on the executable: `swift build --build-tests` builds it.
            try Test.cancel("skipped: cannot run hotstrings as nobody: \(reason)")
        }
        let bundle = try TestBundle()
        let locked = "en.lproj/Locked.strings"
        try bundle.create(locked, stringsText(["secret": "value"]))
        for folder in [bundle.folder, bundle.root, bundle.path("en.lproj"), bundle.path("de.lproj")] {
            try FileSystem.setPermissions(0o755, atPath: folder)
        }
        for file in TestBundle.standardFiles.keys { try FileSystem.setPermissions(0o644, atPath: bundle.path(file)) }
        try FileSystem.setPermissions(0o000, atPath: bundle.path(locked))

        let watch = try HotstringsProcess(["watch", "--settle", "30", bundle.root], userID: nobodyUserID)
        let error = try firstLine(of: watch.stdout, "an error event for \(locked)") { line in
            line["event"] as? String == "error" && line["file"] as? String == locked ? line : nil
        }
        let message = try #require(error["message"] as? String)
        #expect(message.contains("Permission denied"), "\(message)")
        // Nothing lost: the readable tables are in the snapshot.
        let snapshot = try firstLine(of: watch.stdout, "the snapshot") {
            $0["event"] as? String == "snapshot" ? $0 : nil
        }
        #expect((snapshot["tables"] as? [Any])?.count == 4)

        try watch.process.send(.terminate)
        #expect(watch.waitForExit() == 0, "hotstrings watch did not stop cleanly on SIGTERM")
        #expect(watch.process.termination == .exited(0))
    }

    /// An edit made while its folder was unreadable is read once the folder is readable again (issue 10,
    /// finding 2): the folder's attribute change brings a rescan of it, and its tables are kept meanwhile.
    @Test func anEditInAFolderMadeUnreadableIsReadWhenItIsReadableAgain() throws {
        if let reason = otherUserUnavailable {
            try Test.cancel("skipped: cannot run hotstrings as nobody: \(reason)")
        }
        let bundle = try TestBundle()
        for folder in [bundle.folder, bundle.root, bundle.path("en.lproj"), bundle.path("de.lproj")] {
            try FileSystem.setPermissions(0o755, atPath: folder)
        }
        for file in TestBundle.standardFiles.keys { try FileSystem.setPermissions(0o644, atPath: bundle.path(file)) }
        let watch = try HotstringsProcess(["watch", "--settle", "30", bundle.root], userID: nobodyUserID)
        _ = try firstLine(of: watch.stdout, "the snapshot") { $0["event"] as? String == "snapshot" ? 1 : nil }
        try FileSystem.setPermissions(0o000, atPath: bundle.path("de.lproj"))
        try bundle.save("de.lproj/Localizable.strings", stringsText(["greeting": "Servus", "farewell": "Tschüss"]))
        _ = try firstLine(of: watch.stdout, "an error about the unreadable folder") { line -> Int? in
            line["event"] as? String == "error" && (line["file"] as? String)?.hasPrefix("de.lproj") == true ? 1 : nil
        }
        try FileSystem.setPermissions(0o755, atPath: bundle.path("de.lproj"))
        _ = try firstLine(of: watch.stdout, "the edit, once readable") { line -> Int? in
            guard line["event"] as? String == "reload", let changes = line["changes"] as? [[String: Any]] else {
                return nil
            }
            return changes.contains { ($0["changed"] as? [String: String])?["greeting"] == "Servus" } ? 1 : nil
        }
        let deletions = watch.stdout.text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["changes"] as? [[String: Any]]
        }.joined().filter { $0["kind"] as? String == "deleted" }
        #expect(deletions.isEmpty, "the unreadable folder's tables were kept: \(deletions)")
        try watch.process.send(.terminate)
    }

    /// Waits for the first line of `output` that is a JSON object for which `match` returns a value.
    func firstLine<Value>(of output: PipeReader, _ what: String, _ match: ([String: Any]) -> Value?) throws -> Value {
        func found(_ text: String) -> Value? {
            for line in text.split(separator: "\n") {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let object, let value = match(object) { return value }
            }
            return nil
        }
        try output.wait(for: what, timeout: .seconds(5)) { found($0) != nil }
        return try #require(found(output.text))
    }
}
