import Glibc

extension FileSystem {
    /// The text a symbolic link at `path` holds, from `readlink`; the link itself is not followed.
    /// - Throws: `SystemError` naming `path` (`EINVAL` when `path` is no symbolic link).
    package static func linkTarget(atPath path: String) throws(SystemError) -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = try retryingOnInterrupt { readlink(path, &buffer, buffer.count - 1) }.get("readlink", path: path)
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
