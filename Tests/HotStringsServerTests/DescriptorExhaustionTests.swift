import Foundation
import Glibc
import HotStringsTestSupport
import LinuxSystem
import Testing

/// An edit made while the daemon is out of descriptors is not lost (issue 10, finding 1): the read that fails
/// with EMFILE is retried until it succeeds.
@Suite struct DescriptorExhaustionTests {
    @Test func anEditReadWhileOutOfDescriptorsIsServedOnceTheyAreBack() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit") else {
            try Test.cancel("skipped: no prlimit (util-linux) to lower the daemon's descriptor limit")
        }
        let sandbox = try Sandbox()
        let daemon = try DaemonProcess.serving(sandbox)
        let limit = try daemon.openDescriptorCount() + 4
        let prlimit = try ProcessRun.tool("/usr/bin/prlimit", ["--pid", String(daemon.pid), "--nofile=\(limit):\(limit)"])
        try #require(prlimit.code == 0, "prlimit could not lower the daemon's limit: \(prlimit.stderr)")

        // Idle clients until the daemon holds every descriptor it may have.
        var clients: [Int32] = []
        defer { for fd in clients { _ = close(fd) } }
        for _ in 0..<12 { clients.append(try UnixSocket.connect(toPath: sandbox.socket)) }
        try waitUntil("the daemon at its descriptor limit") { try daemon.openDescriptorCount() >= limit }

        try sandbox.save("\"extra\" = \"arrived\";\n", to: "de.lproj/Extra.strings")
        try waitUntil("the failed read in the log") {
            daemon.log.split(separator: "\n").contains { line in
                line.contains("de.lproj/Extra.strings") && line.contains("open files")
            }
        }
        for fd in clients { _ = close(fd) }
        clients = []
        try waitUntil("the edit served once descriptors are back", timeout: .seconds(15)) {
            let get = try HotstringsProcess.run(["get", "extra", "--table", "Extra", "--language", "de",
                                                 "--socket", sandbox.socket, "--timeout", "5"])
            return get.code == 0 && get.stdout.contains("arrived")
        }
    }
}
