import HotStringsLog
import HotStringsService
import LinuxSystem

/// The page's token: 32 bytes from `getrandom`, written as 64 hexadecimal digits in the state directory
/// (`web-token-<hash of the bundle root>`, mode 0600) so a restart keeps it; `--web-new-token` replaces it.
enum WebToken {
    /// The token for the bundle at `root`: the saved one, or a new one saved (always new with `rotating`).
    /// Without a state directory (or one that cannot be written) the token lives as long as the process, which is
    /// logged to `log`.
    /// - Throws: `SystemError` when the kernel gives no random bytes.
    static func load(stateDirectory: String?, root: String, rotating: Bool, log: LogSink) throws(SystemError)
        -> String {
        let file = stateDirectory.map { StateFile(directory: $0, prefix: "web-token-", root: root) }
        if !rotating, let file, let saved = read(file) { return saved }
        let token = try KernelRandom.bytes(32).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        guard let file else {
            log.warning("web: no state directory; the token lasts until the daemon stops")
            return token
        }
        do {
            try StateDirectory.create(atPath: file.directory)
            try FileSystem.writeFileAtomically(Array((token + "\n").utf8), toPath: file.path, mode: 0o600)
        } catch {
            log.warning("web: cannot save the token (it lasts until the daemon stops): \(error)")
        }
        return token
    }

    /// The saved token, if the file is ours, private and holds one.
    private static func read(_ file: StateFile) -> String? {
        guard let owner = try? FileSystem.ownership(atPath: file.path, followingSymlinks: false),
              owner.kind == .file, owner.userID == ProcessStatistics.userID, owner.permissions & 0o077 == 0,
              let bytes = try? FileSystem.readFile(atPath: file.path, maximumSize: 256) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self).filter { !$0.isWhitespace }
        guard text.count == 64, text.allSatisfy(\.isHexDigit) else { return nil }
        return text
    }
}
