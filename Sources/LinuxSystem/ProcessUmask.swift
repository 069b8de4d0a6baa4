import Glibc

extension ProcessStatistics {
    /// The process's file mode creation mask, read from the `Umask:` line of /proc/self/status (Linux 4.7 and
    /// later) so that reading it does not change it; nil when the kernel does not report it.
    package static func fileCreationMask() -> UInt32? {
        let fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { _ = Glibc.close(fd) }
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            text += chunk[..<count]
        }
        for line in text.split(separator: 0x0A) where line.starts(with: Array("Umask:".utf8)) {
            let digits = line.dropFirst(6).filter { $0 != 0x20 && $0 != 0x09 }
            return UInt32(String(decoding: digits, as: UTF8.self), radix: 8)
        }
        return nil
    }
}
