import Foundation

/// The times of manifests: RFC 3339 in UTC, to the second (`2026-01-31T00:00:00Z`), as `publish` writes them.
package enum ReleaseTime {
    /// `date` as `yyyy-MM-dd'T'HH:mm:ss'Z'`.
    package static func string(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        return formatter.string(from: date)
    }

    /// The date of an RFC 3339 time with an offset (`Z`, `+02:00`), or nil for anything else.
    package static func date(_ text: String) -> Date? {
        guard text.utf8.count <= 40 else { return nil }
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
