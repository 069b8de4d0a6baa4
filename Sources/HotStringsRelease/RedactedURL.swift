import Foundation

/// A URL as HotStrings shows it: in errors, `status` (text and JSON), the log, `error` events and the install
/// record. The user info of an origin's URL may hold a password (`https://user:password@cdn.example.com/app`),
/// which is replaced, with the user name, by `***` (`https://***@cdn.example.com/app`), so that every place that
/// shows a URL shows it through this one function.
package enum RedactedURL {
    /// `url` with the user info of its authority (everything before the last `@` between `://` and the next `/`,
    /// `?` or `#`) replaced by `***`; any other text unchanged.
    package static func text(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        let authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
        guard let at = authority.lastIndex(of: "@") else { return url }
        return String(url[..<scheme.upperBound]) + "***" + String(url[at...])
    }

    /// `url` as `text(_:)` shows it.
    package static func text(_ url: URL) -> String {
        text(url.absoluteString)
    }
}
