import LinuxSystem

/// Which daemons a client believes: the one whose process runs as the client's own user, as root, or as a user
/// the client was told to trust.
///
/// Anyone can create a listening socket at a path in a shared folder (`/tmp/hotstrings-<uid>.sock`) before the
/// real daemon starts. A client therefore asks the kernel who is listening (`SO_PEERCRED`, recorded when the
/// server called `listen`) right after connecting, and talks only to a server it trusts. Root is trusted
/// because root can read and change anything of the user's anyway.
package struct ServerTrust: Sendable, Hashable {
    /// The user this client runs as.
    package var ownUserID: UInt32
    /// Further users whose servers the client believes (`--trust-uid`, `Configuration.trustedServerUserIDs`).
    package var trustedUserIDs: Set<UInt32>

    /// Trusts servers of `ownUserID` (this process's user by default), root, and `trustedUserIDs`.
    package init(trustedUserIDs: some Sequence<UInt32> = [], ownUserID: UInt32 = ProcessStatistics.userID) {
        self.ownUserID = ownUserID
        self.trustedUserIDs = Set(trustedUserIDs)
    }

    /// Whether a server running as `userID` may be believed.
    package func trusts(userID: UInt32) -> Bool {
        userID == 0 || userID == ownUserID || trustedUserIDs.contains(userID)
    }
}
