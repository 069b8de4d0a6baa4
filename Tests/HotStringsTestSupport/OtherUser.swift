import Foundation
import LinuxSystem

/// The user `nobody`, the second local user tests run processes as (`ChildProcess` switches user and group, and
/// drops supplementary groups, in the child before exec, as `setpriv --reuid --regid --clear-groups` would).
package let nobodyUserID: UInt32 = 65534

/// Why tests cannot run a process as another user here, or nil when they can: they must run as root, and
/// `nobody` must be able to reach and run the `hotstrings` binary.
package let otherUserUnavailable: String? = {
    guard ProcessStatistics.userID == 0 else { return "the tests do not run as root, so they cannot change user" }
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

extension Sandbox {
    /// A folder `<root>/<name>` owned by `userID` (mode 0755), with the sandbox opened for others to reach it
    /// and the bundle: where a daemon run as that user can put its socket and state.
    /// - Throws: what creating the folder or changing its owner or mode throws.
    package func folder(ownedBy userID: UInt32, named name: String) throws -> String {
        let folder = root + "/" + name
        try FileSystem.setPermissions(0o755, atPath: root)
        try FileSystem.makeDirectory(atPath: folder, mode: 0o755)
        try FileManager.default.setAttributes(
            [.ownerAccountID: NSNumber(value: userID), .groupOwnerAccountID: NSNumber(value: userID)],
            ofItemAtPath: folder
        )
        return folder
    }
}

extension DaemonProcess {
    /// Starts `hotstrings serve` on the sandbox's bundle as `nobody`, with its socket and state in a folder
    /// `nobody` owns, and waits until it serves: a server of another local user, as a squatter's would be.
    /// - Throws: `TimedOut` with the reason when no process can be run as another user here (see
    ///   `otherUserUnavailable`), or what starting the daemon throws.
    package static func servingAsNobody(_ sandbox: Sandbox) async throws -> DaemonProcess {
        let sandbox = UncheckedSandbox(sandbox)
        return try await offThePool { try servingAsNobody(sandbox.value) }
    }

    /// Starts `hotstrings serve` as `nobody` (see the asynchronous form), blocking the calling thread.
    /// - Throws: like the asynchronous form.
    package static func servingAsNobody(_ sandbox: Sandbox) throws -> DaemonProcess {
        if let reason = otherUserUnavailable { throw TimedOut(description: reason) }
        let folder = try sandbox.folder(ownedBy: nobodyUserID, named: "nobody")
        let daemon = try DaemonProcess(bundle: sandbox.bundle, socket: folder + "/d.sock",
                                       stateDirectory: folder + "/state", userID: nobodyUserID)
        try daemon.waitUntilServing()
        return daemon
    }
}
