import Glibc
import LinuxSystem
import Testing

/// Shutting down this process's TCP connections to one host and port (issue 20: a redirect body libcurl reads
/// for ever).
@Suite struct ConnectionSeveringTests {
    /// A listening TCP socket on 127.0.0.1 and a connected client, both closed on deinit.
    final class Pair {
        let listener: Int32
        let client: Int32
        let accepted: Int32
        let port: Int

        init() throws {
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let listening = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                    bind(listener, raw, length) == 0 && listen(listener, 4) == 0
                        && getsockname(listener, raw, &length) == 0
                }
            }
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) }
            }
            self.listener = listener
            self.client = client
            port = Int(UInt16(bigEndian: address.sin_port))
            accepted = listening && connected == 0 ? accept(listener, nil, nil) : -1
            try #require(accepted >= 0, "a TCP connection on 127.0.0.1")
        }

        deinit {
            close(client)
            close(accepted)
            close(listener)
        }

        /// What a read of the client that does not wait gets: the byte count, or -errno.
        func clientRead() -> Int {
            var byte: UInt8 = 0
            let count = recv(client, &byte, 1, Int32(MSG_DONTWAIT))
            return count >= 0 ? count : -Int(errno)
        }
    }

    @Test func theConnectionToThePeerReadsEndOfFileAndOthersAreUntouched() throws {
        let target = try Pair()
        let other = try Pair()
        #expect(target.clientRead() == -Int(EAGAIN))
        #expect(ConnectionSevering.shutDownConnections(toHost: "127.0.0.1", port: target.port) == 1)
        #expect(target.clientRead() == 0, "the severed client reads end-of-file")
        #expect(other.clientRead() == -Int(EAGAIN), "a connection to another port is left alone")
        var byte: UInt8 = 1
        #expect(send(other.client, &byte, 1, Int32(MSG_NOSIGNAL)) == 1)
    }

    @Test func aNameIsResolvedAndAnotherAddressSeversNothing() throws {
        let target = try Pair()
        #expect(ConnectionSevering.shutDownConnections(toHost: "localhost", port: target.port) == 1)
        #expect(target.clientRead() == 0)
        #expect(ConnectionSevering.shutDownConnections(toHost: "127.0.0.2", port: target.port) == 0)
        #expect(ConnectionSevering.shutDownConnections(toHost: "127.0.0.1", port: 70_000) == 0)
    }
}
