import Glibc
import HotStringsTestSupport
import LinuxSystem
import Testing

/// What the command line reads and writes where a person points it (`lint`, `dump`, `compile`): whatever a path
/// names, read to its end, and folders made with their parents.
@Suite struct NamedFileTests {
    @Test(arguments: [0, 1, 65_536, 65_537, 1 << 20])
    func readsARegularFileToItsEnd(size: Int) throws {
        try withTemporaryDirectory { directory in
            let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31) }
            try FileSystem.writeFile(bytes, toPath: directory + "/table.strings")
            #expect(try FileSystem.readToEnd(atPath: directory + "/table.strings") == bytes)
        }
    }

    /// A FIFO (`lint <(generate)`), which `readFile(atPath:maximumSize:)` refuses, is read until its writer closes.
    @Test func readsAFIFOUntilItsWriterCloses() throws {
        let directory = try FileSystem.makeTemporaryDirectory(prefix: "linux-system-tests")
        defer { try? FileSystem.removeRecursively(atPath: directory) }
        let path = directory + "/fifo"
        try #require(mkfifo(path, 0o600) == 0)
        let text = Array(String(repeating: "\"k\" = \"v\";\n", count: 20_000).utf8)
        let writer = NamedThread.run(name: "fifo-writer") {
            // Blocks until the reader opens the FIFO, as the reader's open does until this one.
            let fd = open(path, O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { return }
            var rest = text[...]
            while !rest.isEmpty, let written = try? Descriptor.write(Array(rest.prefix(4096)), to: fd), written > 0 {
                rest = rest.dropFirst(written)
            }
            Descriptor.close(fd)
        }
        let read = try FileSystem.readToEnd(atPath: path)
        writer.join()
        #expect(read == text)
    }

    @Test func aDirectoryOrAMissingFileIsAnErrorNamingThePath() throws {
        try withTemporaryDirectory { directory in
            let folder = #expect(throws: SystemError.self) { try FileSystem.readToEnd(atPath: directory) }
            #expect(folder?.errno == .isDirectory)
            #expect(folder?.path == directory)
            #expect(folder?.errno.message == "Is a directory")
            let missing = #expect(throws: SystemError.self) { try FileSystem.readToEnd(atPath: directory + "/x") }
            #expect(missing?.errno == .noSuchFileOrDirectory)
            #expect(missing?.path == directory + "/x")
            #expect(missing?.errno.message == "No such file or directory")
        }
    }

    @Test func readsADescriptorToItsEnd() throws {
        let (reading, writing) = try Descriptor.makePipe()
        defer { Descriptor.close(reading) }
        let text = Array(String(repeating: "standard input\n", count: 10_000).utf8)
        let writer = NamedThread.run(name: "pipe-writer") {
            var rest = text[...]
            while !rest.isEmpty, let written = try? Descriptor.write(Array(rest), to: writing), written > 0 {
                rest = rest.dropFirst(written)
            }
            Descriptor.close(writing)
        }
        defer { writer.join() }
        #expect(try Descriptor.readToEnd(from: reading) == text)
    }

    @Test func makesDirectoriesWithTheirParentsAndLeavesThoseThatExist() throws {
        try withTemporaryDirectory { directory in
            try FileSystem.makeDirectory(atPath: directory + "/kept", mode: 0o755)
            try FileSystem.makeDirectories(atPath: directory + "/kept/a/b/c", mode: 0o700)
            #expect(try FileSystem.status(atPath: directory + "/kept").permissions == 0o755)
            for path in ["/kept/a", "/kept/a/b", "/kept/a/b/c"] {
                #expect(try FileSystem.status(atPath: directory + path).kind == .directory)
                #expect(try FileSystem.status(atPath: directory + path).permissions == 0o700)
            }
            // Again: nothing to make, nothing thrown.
            try FileSystem.makeDirectories(atPath: directory + "/kept/a/b/c/", mode: 0o700)

            try FileSystem.writeFile([1], toPath: directory + "/file")
            let blocked = #expect(throws: SystemError.self) {
                try FileSystem.makeDirectories(atPath: directory + "/file/sub", mode: 0o700)
            }
            #expect(blocked?.errno == .notDirectory)
            #expect(blocked?.path == directory + "/file")
        }
    }
}
