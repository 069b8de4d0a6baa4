import HotStringsTestSupport

/// A daemon serving the page, with where the page is.
struct WebDaemon {
    let daemon: DaemonProcess
    let port: UInt16
    let token: String

    /// Starts `serve --web 0` on the sandbox and reads the page's address from its log.
    static func start(_ sandbox: Sandbox, arguments: [String] = []) throws -> WebDaemon {
        let daemon = try DaemonProcess.serving(sandbox, arguments: ["--web", "0"] + arguments)
        guard let line = daemon.log.split(separator: "\n").first(where: { $0.contains("web: http://127.0.0.1:") }),
              let address = line.split(separator: "web: http://127.0.0.1:").last,
              let port = UInt16(address.prefix { $0.isNumber }),
              let token = address.split(separator: "?token=").last else {
            throw ClientError(description: "no web line in the log:\n\(daemon.log)")
        }
        return WebDaemon(daemon: daemon, port: port, token: String(token))
    }

    var bearer: (String, String) { ("Authorization", "Bearer \(token)") }
    var origin: (String, String) { ("Origin", "http://127.0.0.1:\(port)") }

    /// A new connection to the page.
    func client() throws -> WebClient { try WebClient(port: port) }
}
