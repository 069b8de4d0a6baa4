import Testing
import HotStringsProtocol

@Suite("Socket path resolution")
struct SocketPathTests {
    static let cases: [(String?, [String: String], String)] = [
        ("/srv/hs.sock", ["HOTSTRINGS_SOCKET": "/env.sock", "XDG_RUNTIME_DIR": "/run/user/1000"], "/srv/hs.sock"),
        (nil, ["HOTSTRINGS_SOCKET": "/env.sock", "XDG_RUNTIME_DIR": "/run/user/1000"], "/env.sock"),
        (nil, ["HOTSTRINGS_SOCKET": "relative.sock"], "relative.sock"),
        (nil, ["XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/hotstrings.sock"),
        (nil, ["XDG_RUNTIME_DIR": "/run/user/1000/"], "/run/user/1000/hotstrings.sock"),
        (nil, [:], "/tmp/hotstrings-1000.sock"),
        ("", ["HOTSTRINGS_SOCKET": "", "XDG_RUNTIME_DIR": "/run/user/1000"], "/run/user/1000/hotstrings.sock"),
        (nil, ["HOTSTRINGS_SOCKET": "", "XDG_RUNTIME_DIR": ""], "/tmp/hotstrings-1000.sock"),
        (nil, ["XDG_RUNTIME_DIR": "run/user"], "/tmp/hotstrings-1000.sock"),
    ]

    @Test("option, then HOTSTRINGS_SOCKET, then XDG_RUNTIME_DIR, then /tmp", arguments: cases)
    func precedence(option: String?, environment: [String: String], expected: String) {
        #expect(SocketPath.resolve(option: option, environment: environment, userID: 1000) == expected)
    }

    @Test("the fallback names the user")
    func userID() {
        #expect(SocketPath.resolve(option: nil, environment: [:], userID: 0) == "/tmp/hotstrings-0.sock")
        #expect(SocketPath.resolve(option: nil, environment: [:], userID: 4_294_967_294)
            == "/tmp/hotstrings-4294967294.sock")
    }
}
