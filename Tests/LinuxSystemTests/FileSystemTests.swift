import HotStringsTestSupport
import LinuxSystem
import Testing

@Suite struct FileSystemTests {
    @Test func statusTellsFilesDirectoriesAndSymlinksApart() throws {
        try withTemporaryDirectory { directory in
            let file = "\(directory)/a.strings"
            let link = "\(directory)/link.strings"
            try FileSystem.writeFile(Array("hello".utf8), toPath: file, mode: 0o640)
            try FileSystem.setPermissions(0o640, atPath: file)
            try FileSystem.makeSymbolicLink(atPath: link, pointingTo: "a.strings")

            let fileStatus = try FileSystem.status(atPath: file)
            #expect(fileStatus.kind == .file)
            #expect(fileStatus.size == 5)
            #expect(fileStatus.permissions == 0o640)
            #expect(fileStatus.inode != 0)
            #expect(fileStatus.modified.seconds > 1_600_000_000)
            #expect(try FileSystem.status(atPath: directory).kind == .directory)

            let linkStatus = try FileSystem.status(atPath: link, followingSymlinks: false)
            #expect(linkStatus.kind == .symlink)
            #expect(linkStatus.inode != fileStatus.inode)
            let followed = try FileSystem.status(atPath: link)
            #expect(followed.kind == .file)
            #expect(followed.inode == fileStatus.inode && followed.device == fileStatus.device)
        }
    }

    @Test func statusOfAMissingPathNamesIt() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: SystemError.self) {
                try FileSystem.status(atPath: "\(directory)/nope", followingSymlinks: false)
            }
            #expect(error == SystemError(operation: "lstat", path: "\(directory)/nope", errno: .noSuchFileOrDirectory))
        }
    }

    @Test func listsADirectorySortedWithoutDotEntries() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(atPath: "\(directory)/en.lproj")
            try FileSystem.writeFile([], toPath: "\(directory)/b.strings")
            try FileSystem.writeFile([], toPath: "\(directory)/.hidden")
            try FileSystem.makeSymbolicLink(atPath: "\(directory)/..data", pointingTo: "en.lproj")
            #expect(try FileSystem.listDirectory(atPath: directory) == [
                FileSystem.DirectoryEntry(name: "..data", kind: .symlink),
                FileSystem.DirectoryEntry(name: ".hidden", kind: .file),
                FileSystem.DirectoryEntry(name: "b.strings", kind: .file),
                FileSystem.DirectoryEntry(name: "en.lproj", kind: .directory),
            ])
            #expect(try FileSystem.listDirectory(atPath: "\(directory)/en.lproj").isEmpty)
            let error = #expect(throws: SystemError.self) {
                try FileSystem.listDirectory(atPath: "\(directory)/b.strings")
            }
            #expect(error?.errno == .notDirectory)
            #expect(error?.operation == "opendir")
        }
    }

    @Test(arguments: [0, 1, 4096, 65_537, 1 << 20])
    func readsAFileWhole(size: Int) throws {
        try withTemporaryDirectory { directory in
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            try FileSystem.writeFile(bytes, toPath: "\(directory)/f")
            #expect(try FileSystem.readFile(atPath: "\(directory)/f", maximumSize: size) == bytes)
        }
    }

    @Test func readingAFileOverTheCapFailsWithEFBIG() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/big.strings"
            try FileSystem.writeFile([UInt8](repeating: 65, count: 101), toPath: path)
            let error = #expect(throws: SystemError.self) { try FileSystem.readFile(atPath: path, maximumSize: 100) }
            #expect(error == SystemError(operation: "read", path: path, errno: .fileTooLarge))
            #expect(error?.description == "read(\(path)): File too large (EFBIG)")
        }
    }

    @Test func readingAFileWhoseSizeIsUnknownReadsToTheEndAndStillHonoursTheCap() throws {
        // Files under /proc report a size of 0, so these reads go past the size fstat gave.
        #expect(try FileSystem.status(atPath: "/proc/self/status").size == 0)
        let content = try FileSystem.readFile(atPath: "/proc/self/status", maximumSize: 1 << 20)
        #expect(content.starts(with: Array("Name:".utf8)))
        let error = #expect(throws: SystemError.self) {
            try FileSystem.readFile(atPath: "/proc/self/status", maximumSize: 10)
        }
        #expect(error?.errno == .fileTooLarge)
    }

    @Test func readingADirectoryFailsWithEISDIR() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: SystemError.self) {
                try FileSystem.readFile(atPath: directory, maximumSize: 1 << 20)
            }
            #expect(error == SystemError(operation: "read", path: directory, errno: .isDirectory))
        }
    }

    @Test func readingAMissingFileNamesThePath() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/de.lproj/Missing.strings"
            let error = #expect(throws: SystemError.self) { try FileSystem.readFile(atPath: path, maximumSize: 10) }
            #expect(error?.errno == .noSuchFileOrDirectory)
            #expect(error?.description == "open(\(path)): No such file or directory (ENOENT)")
        }
    }

    @Test func readingADeviceIsRefused() throws {
        let error = #expect(throws: SystemError.self) { try FileSystem.readFile(atPath: "/dev/zero", maximumSize: 10) }
        #expect(error?.errno == .invalidArgument)
    }

    @Test func writesAtomicallyWithTheModeAndNoLeftovers() throws {
        try withTemporaryDirectory { directory in
            let path = "\(directory)/language"
            try FileSystem.writeFileAtomically(Array("de".utf8), toPath: path, mode: 0o600)
            let first = try FileSystem.status(atPath: path)
            #expect(first.permissions == 0o600)
            try FileSystem.writeFileAtomically(Array("pt-BR".utf8), toPath: path)
            #expect(try FileSystem.readFile(atPath: path, maximumSize: 100) == Array("pt-BR".utf8))
            let second = try FileSystem.status(atPath: path)
            #expect(second.permissions == 0o644)
            #expect(second.inode != first.inode, "the file is replaced by rename, never rewritten in place")
            #expect(try FileSystem.listDirectory(atPath: directory).map(\.name) == ["language"])
        }
    }

    @Test func writingAtomicallyIntoAMissingDirectoryFails() throws {
        try withTemporaryDirectory { directory in
            let error = #expect(throws: SystemError.self) {
                try FileSystem.writeFileAtomically([1], toPath: "\(directory)/missing/file")
            }
            #expect(error?.errno == .noSuchFileOrDirectory)
            // The path asked for, not the random temporary name: the same failure reads the same each time.
            #expect(error?.path == "\(directory)/missing/file")
        }
    }

    @Test func resolvesSymbolicLinks() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(atPath: "\(directory)/..2024_01_01")
            try FileSystem.writeFile([], toPath: "\(directory)/..2024_01_01/en.strings")
            try FileSystem.makeSymbolicLink(atPath: "\(directory)/..data", pointingTo: "..2024_01_01")
            try FileSystem.makeSymbolicLink(atPath: "\(directory)/en.strings", pointingTo: "..data/en.strings")
            let real = try FileSystem.resolvedPath(directory)
            #expect(try FileSystem.resolvedPath("\(directory)/en.strings") == "\(real)/..2024_01_01/en.strings")
            let dotted = try FileSystem.resolvedPath("\(directory)/./..data/../en.strings")
            #expect(dotted == "\(real)/..2024_01_01/en.strings")
            let error = #expect(throws: SystemError.self) { try FileSystem.resolvedPath("\(directory)/en.strings/") }
            #expect(error?.errno == .notDirectory)
            let missing = #expect(throws: SystemError.self) { try FileSystem.resolvedPath("\(directory)/nope") }
            #expect(missing?.errno == .noSuchFileOrDirectory)
        }
    }

    @Test func resolvesADirectoryThroughLinksInOneOpen() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(atPath: "\(directory)/..rel1")
            try FileSystem.makeDirectory(atPath: "\(directory)/..rel1/de.lproj")
            try FileSystem.writeFile([], toPath: "\(directory)/..rel1/de.lproj/T.strings")
            try FileSystem.makeSymbolicLink(atPath: "\(directory)/..data", pointingTo: "..rel1")
            try FileSystem.makeSymbolicLink(atPath: "\(directory)/de.lproj", pointingTo: "..data/de.lproj")
            try FileSystem.makeSymbolicLink(atPath: "\(directory)/fr.lproj", pointingTo: "..data/fr.lproj")
            let real = try FileSystem.resolvedPath(directory)
            let resolved = try FileSystem.resolvedDirectory(atPath: "\(directory)/de.lproj")
            #expect(resolved.path == "\(real)/..rel1/de.lproj")
            #expect(resolved.status == (try FileSystem.status(atPath: "\(directory)/..rel1/de.lproj")))
            let file = #expect(throws: SystemError.self) {
                try FileSystem.resolvedDirectory(atPath: "\(directory)/de.lproj/T.strings")
            }
            #expect(file?.errno == .notDirectory)
            let nowhere = #expect(throws: SystemError.self) {
                try FileSystem.resolvedDirectory(atPath: "\(directory)/fr.lproj")
            }
            #expect(nowhere?.errno == .noSuchFileOrDirectory)
        }
    }

    @Test func makesAndRemovesTrees() throws {
        let directory = try FileSystem.makeTemporaryDirectory(prefix: "linux-system-tests")
        #expect(directory.hasPrefix("/tmp/linux-system-tests."))
        #expect(try FileSystem.status(atPath: directory).permissions == 0o700)
        try FileSystem.makeDirectory(atPath: "\(directory)/a")
        let error = #expect(throws: SystemError.self) { try FileSystem.makeDirectory(atPath: "\(directory)/a") }
        #expect(error?.errno == .exists)
        try FileSystem.makeDirectory(atPath: "\(directory)/a/b")
        try FileSystem.writeFile([1], toPath: "\(directory)/a/b/c")
        try FileSystem.makeSymbolicLink(atPath: "\(directory)/a/loop", pointingTo: "..")
        let notEmpty = #expect(throws: SystemError.self) { try FileSystem.removeDirectory(atPath: "\(directory)/a") }
        #expect(notEmpty?.errno == .directoryNotEmpty)
        try FileSystem.removeRecursively(atPath: directory)
        let gone = #expect(throws: SystemError.self) { try FileSystem.status(atPath: directory) }
        #expect(gone?.errno == .noSuchFileOrDirectory)
        try FileSystem.removeRecursively(atPath: directory)
    }
}
