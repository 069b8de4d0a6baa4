import LinuxSystem

/// Runs `body` with a new directory under /tmp, removed afterwards with everything in it.
func withTemporaryDirectory<Result>(_ body: (String) throws -> Result) throws -> Result {
    let directory = try FileSystem.makeTemporaryDirectory(prefix: "linux-system-tests")
    defer { try? FileSystem.removeRecursively(atPath: directory) }
    return try body(directory)
}
