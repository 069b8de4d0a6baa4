import Foundation
import LinuxSystem

/// The user `nobody`, the second local user tests run processes as (through `setpriv`).
package let nobodyUserID: UInt32 = 65534

/// Where `setpriv` is expected.
let setprivPath = "/usr/bin/setpriv"

/// Why tests cannot run a process as another user here, or nil when they can: they must run as root, `setpriv`
/// must be installed, and `nobody` must be able to reach and run the `hotstrings` binary.
package let otherUserUnavailable: String? = {
    guard ProcessStatistics.userID == 0 else { return "the tests do not run as root, so setpriv cannot change user" }
    guard FileManager.default.isExecutableFile(atPath: setprivPath) else { return "no \(setprivPath)" }
    guard let executable = hotstringsExecutable else { return "the hotstrings binary was not built" }
    guard isReachableByOthers(executable.path) else {
        return "nobody cannot run \(executable.path): a folder above it is not searchable by others"
    }
    return nil
}()

/// Whether the user `nobody` can reach `path`: it and every folder above it have the "others" execute bit.
package func isReachableByOthers(_ path: String) -> Bool {
    var current = path
    while !current.isEmpty && current != "/" {
        guard let status = try? FileSystem.status(atPath: current), status.permissions & 0o001 != 0 else {
            return false
        }
        current = (current as NSString).deletingLastPathComponent
    }
    return true
}
