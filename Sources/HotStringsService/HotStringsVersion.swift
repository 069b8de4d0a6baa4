/// This build's version, as `hello` reports it (`"server": "hotstrings 0.1.0"`) from the daemon and in
/// embedded mode alike.
package enum HotStringsVersion {
    /// The version number.
    package static let number = "0.1.0"
    /// The `server` member of a `hello` answer.
    package static let serverName = "hotstrings \(number)"
}
