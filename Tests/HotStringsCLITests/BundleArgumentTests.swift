import Foundation
import Testing

/// `serve` and `watch` take a bundle folder: anything else there is a usage error (issue 10, finding 8).
struct BundleArgumentTests {
    @Test(arguments: [["serve"], ["watch"]])
    func aFileAsTheBundleIsAUsageError(command: [String]) throws {
        let file = NSTemporaryDirectory() + "hotstrings-not-a-bundle-\(UUID().uuidString).txt"
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let result = run(command + [file] + (command == ["serve"] ? ["--socket", file + ".sock"] : []))
        #expect(result.code == 64)
        #expect(result.stderr.hasPrefix("hotstrings \(command[0]): error: \(file) is not a directory"),
                "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: file), "the file is left alone")
    }
}
