/// Where the daemon listens and clients connect, resolved the same way on both sides.
package enum SocketPath {
    /// The socket path: `option` (`--socket`), else `$HOTSTRINGS_SOCKET`, else
    /// `$XDG_RUNTIME_DIR/hotstrings.sock`, else `/tmp/hotstrings-<uid>.sock`.
    ///
    /// Empty values count as unset, and a relative `XDG_RUNTIME_DIR` is ignored, as the XDG Base Directory
    /// specification requires.
    package static func resolve(option: String?, environment: [String: String], userID: UInt32) -> String {
        if let option, !option.isEmpty { return option }
        if let path = environment["HOTSTRINGS_SOCKET"], !path.isEmpty { return path }
        if let directory = environment["XDG_RUNTIME_DIR"], directory.hasPrefix("/") {
            return directory.hasSuffix("/") ? directory + "hotstrings.sock" : directory + "/hotstrings.sock"
        }
        return "/tmp/hotstrings-\(userID).sock"
    }
}
