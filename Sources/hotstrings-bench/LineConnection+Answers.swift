import HotStringsClient
import HotStringsProtocol

extension LineConnection {
    /// Reads the next line as the answer to a request sent by hand, once, through `ServerMessage`; throws naming
    /// `what` when it is a refusal or no answer at all.
    func readSuccess(_ what: String) throws {
        let line = try readLine()
        guard case .response(_, .success) = try ServerMessage.decode(line) else {
            throw UsageError("\(what) was refused: \(String(decoding: line, as: UTF8.self))")
        }
    }
}
