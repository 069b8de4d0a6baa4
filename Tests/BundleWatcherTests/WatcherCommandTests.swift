import Dispatch
import Foundation
import HotStringsTestSupport
import LinuxSystem
import Synchronization
import Testing

/// The real `hotstrings watch` run as an unprivileged user, for what root cannot provoke: an unreadable file.
@Suite struct WatcherCommandTests {
    /// The `hotstrings` binary that `swift build` puts next to the test bundle, when it has been built.
    static var executable: String? {
        let folders = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            Bundle.main.bundleURL,
            Bundle.main.bundleURL.deletingLastPathComponent(),
        ]
        return folders.map { $0.appendingPathComponent("hotstrings").path }.first(where: isInstalled)
    }

    /// Whether the user `nobody` can reach and run `path`: every folder above it searchable by others.
    static func isRunnableByOthers(_ path: String) -> Bool {
        var current = path
        while !current.isEmpty && current != "/" {
            guard let status = try? FileSystem.status(atPath: current), status.permissions & 0o001 != 0 else {
                return false
            }
            current = (current as NSString).deletingLastPathComponent
        }
        return true
    }

    @Test func unreadableFileIsAnErrorEventAndSIGTERMExitsCleanly() throws {
        guard let executable = Self.executable, Self.isRunnableByOthers(executable),
              isInstalled("/usr/bin/setpriv") else {
            // BundleWatcherTests does not depend on the executable: `swift build --build-tests` builds it.
            try Test.cancel("skipped: no hotstrings binary runnable by nobody next to the tests, or no setpriv")
        }
        let bundle = try TestBundle()
        let locked = "en.lproj/Locked.strings"
        try bundle.create(locked, stringsText(["secret": "value"]))
        for folder in [bundle.folder, bundle.root, bundle.path("en.lproj"), bundle.path("de.lproj")] {
            try FileSystem.setPermissions(0o755, atPath: folder)
        }
        for file in TestBundle.standardFiles.keys { try FileSystem.setPermissions(0o644, atPath: bundle.path(file)) }
        try FileSystem.setPermissions(0o000, atPath: bundle.path(locked))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = [
            "--reuid=65534", "--regid=65534", "--clear-groups", executable, "watch", "--settle", "30", bundle.root,
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // A plain thread reading to the end of the pipe: FileHandle's readabilityHandler (a dispatch source)
        // can outlive the descriptor and crash libdispatch's event loop.
        let lines = LineCollector(reading: output.fileHandleForReading)
        defer {
            if process.isRunning { process.terminate() }
            lines.waitForEnd()
        }

        let error = try lines.wait(for: "an error event for \(locked)") { line in
            line["event"] as? String == "error" && line["file"] as? String == locked ? line : nil
        }
        let message = try #require(error["message"] as? String)
        #expect(message.contains("Permission denied"), "\(message)")
        // Nothing lost: the readable tables are in the snapshot.
        let snapshot = try lines.wait(for: "the snapshot") { $0["event"] as? String == "snapshot" ? $0 : nil }
        #expect((snapshot["tables"] as? [Any])?.count == 4)

        process.terminate()
        #expect(exited.wait(timeout: .now() + .seconds(5)) == .success, "hotstrings watch did not stop on SIGTERM")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }
}

/// Collects a child's standard output as JSON lines, read on a thread of its own until the end of the pipe.
final class LineCollector: Sendable {
    private let buffer = Mutex<(text: String, lines: [String])>(("", []))
    private let arrived = DispatchSemaphore(value: 0)
    private let ended = DispatchSemaphore(value: 0)

    init(reading handle: FileHandle) {
        let thread = Thread { [self] in
            while case let data = handle.availableData, !data.isEmpty { append(data) }
            ended.signal()
            arrived.signal()
        }
        thread.start()
    }

    /// Waits until the writing end is closed (the child has exited), so the pipe outlives its reader.
    func waitForEnd() {
        _ = ended.wait(timeout: .now() + .seconds(5))
    }

    private func append(_ data: Data) {
        buffer.withLock { state in
            state.text += String(decoding: data, as: UTF8.self)
            while let newline = state.text.firstIndex(of: "\n") {
                state.lines.append(String(state.text[..<newline]))
                state.text = String(state.text[state.text.index(after: newline)...])
            }
        }
        arrived.signal()
    }

    /// Waits for the first line that is a JSON object for which `match` returns a value.
    func wait<Value>(for what: String, _ match: ([String: Any]) -> Value?) throws -> Value {
        let deadline = DispatchTime.now() + .seconds(5)
        while true {
            let lines = buffer.withLock { $0.lines }
            for line in lines {
                let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                if let object, let value = match(object) { return value }
            }
            guard arrived.wait(timeout: deadline) == .success else {
                throw TimedOut(description: "timed out waiting for \(what); output: \(lines)")
            }
        }
    }
}
