import Glibc

/// Counts what this process's TCP connections to one host and port received, and shuts them down, whoever owns
/// the descriptors.
///
/// For a library that holds a connection it will not let go of: libcurl, under Linux's `URLSession`, reads a
/// redirect's body into memory for as long as the origin sends it, and a task's `cancel()` waits for the very
/// queue that reading keeps busy. Shut down under it, the socket reads end-of-file, the transfer fails, and the
/// queue is free again. The descriptor itself stays open: its owner closes it as it would any failed connection,
/// and the close resets the connection.
package enum ConnectionSevering {
    /// Shuts down (both directions) every socket of this process whose peer is `host` (a name or an address,
    /// resolved here) at `port`.
    /// - Returns: how many sockets were shut down.
    @discardableResult
    package static func shutDownConnections(toHost host: String, port: Int) -> Int {
        var severed = 0
        forEachConnection(toHost: host, port: port) { descriptor, _ in
            // Linger 0: when the owner closes it, the peer gets a reset. With the reading side shut down, the
            // socket's window stays closed and a peer blocked in a write would otherwise wait for the kernel's
            // FIN_WAIT2 timeout.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            if shutdown(descriptor, Int32(SHUT_RDWR)) == 0 { severed += 1 }
        }
        return severed
    }

    /// The bytes each connection of this process to `host` at `port` has received so far (the kernel's count,
    /// `tcpi_bytes_received`), by the socket's inode: what a library read on a connection it does not show.
    package static func receivedBytes(toHost host: String, port: Int) -> [UInt64: UInt64] {
        var counts: [UInt64: UInt64] = [:]
        forEachConnection(toHost: host, port: port) { descriptor, inode in
            if let received = receivedBytes(descriptor) { counts[inode] = received }
        }
        return counts
    }

    /// Calls `body` with the descriptor and inode of every socket of this process connected to `host`:`port`.
    private static func forEachConnection(toHost host: String, port: Int, _ body: (Int32, UInt64) -> Void) {
        let peers = addresses(of: host, port: port)
        guard !peers.isEmpty, let folder = opendir("/proc/self/fd") else { return }
        defer { closedir(folder) }
        let own = dirfd(folder)
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard let descriptor = Int32(name), descriptor != own else { continue }
            var status = stat()
            guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK,
                  let peer = peer(of: descriptor), peers.contains(peer) else { continue }
            body(descriptor, UInt64(status.st_ino))
        }
    }

    /// `tcpi_bytes_received` of a TCP socket (Linux 4.1 and later: at byte 128 of `struct tcp_info`).
    private static func receivedBytes(_ descriptor: Int32) -> UInt64? {
        var info = [UInt8](repeating: 0, count: 256)
        var length = socklen_t(info.count)
        let status = info.withUnsafeMutableBytes {
            getsockopt(descriptor, Int32(IPPROTO_TCP), TCP_INFO, $0.baseAddress, &length)
        }
        guard status == 0, length >= 136 else { return nil }
        return info.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 128, as: UInt64.self) }
    }

    /// An address and port, as bytes in network order: comparable whatever the family.
    struct Peer: Hashable {
        var address: [UInt8]
        var port: UInt16
    }

    /// Every address `host` resolves to, with `port`.
    static func addresses(of host: String, port: Int) -> Set<Peer> {
        guard let port = UInt16(exactly: port) else { return [] }
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        // Brackets of an IPv6 literal in a URL are not part of the address.
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(bare, nil, &hints, &list) == 0 else { return [] }
        defer { freeaddrinfo(list) }
        var peers: Set<Peer> = []
        var next = list
        while let info = next {
            if let address = info.pointee.ai_addr, var peer = Self.peer(address) {
                peer.port = port
                peers.insert(peer)
            }
            next = info.pointee.ai_next
        }
        return peers
    }

    /// The peer of `descriptor` when it is a connected IPv4 or IPv6 socket.
    private static func peer(of descriptor: Int32) -> Peer? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard status == 0 else { return nil }
        return withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { peer($0) }
        }
    }

    /// The address and port in `address` (IPv4-mapped IPv6 addresses as IPv4).
    private static func peer(_ address: UnsafePointer<sockaddr>) -> Peer? {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                let bytes = withUnsafeBytes(of: inet.pointee.sin_addr) { Array($0) }
                return Peer(address: bytes, port: UInt16(bigEndian: inet.pointee.sin_port))
            }
        case AF_INET6:
            address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                var bytes = withUnsafeBytes(of: inet6.pointee.sin6_addr) { Array($0) }
                if bytes.prefix(12).elementsEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff]) {
                    bytes.removeFirst(12)
                }
                return Peer(address: bytes, port: UInt16(bigEndian: inet6.pointee.sin6_port))
            }
        default:
            nil
        }
    }
}
