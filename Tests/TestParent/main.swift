import Foundation
import HotStringsTestSupport

// hotstrings-test-parent BUNDLE SOCKET STATE-DIRECTORY: a stand-in for a test process. Starts `hotstrings serve`
// through the tests' launcher (`DaemonProcess`, so `ChildProcess`), prints "daemon <pid>" once it serves, and waits
// to be killed. `ChildLifetimeTests` kills it with SIGKILL, as a crash or a CI timeout would, and checks that the
// daemon does not outlive it.
let arguments = CommandLine.arguments
guard arguments.count == 4 else {
    FileHandle.standardError.write(Data("usage: hotstrings-test-parent BUNDLE SOCKET STATE-DIRECTORY\n".utf8))
    exit(64)
}
do {
    let daemon = try DaemonProcess(bundle: arguments[1], socket: arguments[2], stateDirectory: arguments[3])
    try daemon.waitUntilServing()
    FileHandle.standardOutput.write(Data("daemon \(daemon.pid)\n".utf8))  // unbuffered: the test reads it at once
    while true { sleep(3600) }
} catch {
    FileHandle.standardError.write(Data("hotstrings-test-parent: \(error)\n".utf8))
    exit(1)
}
