import Foundation
import StringsFormat

/// Durations as a command line writes them: `50ms`, `1.5s`, `500us`, `2m`; a number without a unit is in the
/// unit the option has always taken, so `--settle 50` still means 50 milliseconds.
enum DurationText {
    /// A unit a duration may be written in, with its length.
    struct Unit: Sendable, Equatable {
        /// The suffix (`ms`); the first of a unit's spellings is the one printed.
        var symbol: String
        /// The unit's name in help (`milliseconds`).
        var name: String
        var nanoseconds: Int64

        static let nanoseconds = Unit(symbol: "ns", name: "nanoseconds", nanoseconds: 1)
        static let microseconds = Unit(symbol: "us", name: "microseconds", nanoseconds: 1_000)
        static let milliseconds = Unit(symbol: "ms", name: "milliseconds", nanoseconds: 1_000_000)
        static let seconds = Unit(symbol: "s", name: "seconds", nanoseconds: 1_000_000_000)
        static let minutes = Unit(symbol: "m", name: "minutes", nanoseconds: 60_000_000_000)
        static let hours = Unit(symbol: "h", name: "hours", nanoseconds: 3_600_000_000_000)

        /// Every unit, longest first (the order `text(_:)` tries them).
        static let all: [Unit] = [.hours, .minutes, .seconds, .milliseconds, .microseconds, .nanoseconds]
    }

    /// Why a text is not a duration.
    enum Failure: Error, Equatable {
        case empty
        case negative
        /// Not a decimal number followed by a unit.
        case malformed
        case unknownUnit(String)
        /// More than 2⁶³ nanoseconds (292 years).
        case tooLong
    }

    /// The units' spellings: `µs` is `us` too.
    static let spellings: [String: Unit] = Dictionary(
        uniqueKeysWithValues: Unit.all.map { ($0.symbol, $0) } + [("µs", .microseconds)])

    /// Reads `text`: a decimal number (`50`, `1.5`, `.5`), optional blanks, then a unit or none for `plain`.
    /// Digits finer than a nanosecond are dropped.
    static func parse(_ text: String, plain: Unit) throws(Failure) -> Duration {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { throw .empty }
        if trimmed.hasPrefix("-") { throw .negative }
        let number = trimmed.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
        let parts = number.split(separator: ".", omittingEmptySubsequences: false)
        guard !number.isEmpty, parts.count <= 2, parts.contains(where: { !$0.isEmpty }),
              parts.count == 1 || !parts[1].isEmpty else { throw .malformed }
        let symbol = trimmed[number.endIndex...].trimmingCharacters(in: .whitespaces)
        guard let unit = symbol.isEmpty ? plain : spellings[symbol] else {
            if symbol.contains(where: \.isNumber) { throw .malformed }
            throw .unknownUnit(symbol)
        }
        var total = Int128(0)
        for digit in parts[0] {
            total = total * 10 + Int128(digit.wholeNumberValue!) * Int128(unit.nanoseconds)
            if total > Int128(Int64.max) { throw .tooLong }
        }
        if parts.count == 2 {
            // Eighteen digits are finer than a nanosecond in every unit; the rest count for nothing.
            let digits = parts[1].prefix(18)
            var fraction = Int128(0)
            var scale = Int128(1)
            for digit in digits {
                fraction = fraction * 10 + Int128(digit.wholeNumberValue!)
                scale *= 10
            }
            total += fraction * Int128(unit.nanoseconds) / scale
        }
        if total > Int128(Int64.max) { throw .tooLong }
        return .nanoseconds(Int64(total))
    }

    /// `duration` as it would be written: in the longest unit that holds it exactly (`50ms`, `500us`, `30s`).
    static func text(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = Int128(seconds) * 1_000_000_000 + Int128(attoseconds / 1_000_000_000)
        if nanoseconds == 0 { return "0" }
        let unit = Unit.all.first { nanoseconds % Int128($0.nanoseconds) == 0 } ?? .nanoseconds
        return "\(nanoseconds / Int128(unit.nanoseconds))\(unit.symbol)"
    }
}

extension OptionType where Value == Duration {
    /// A duration in `range`, written with a unit (`50ms`, `1.5s`) or as a plain number of `plain`.
    static func duration(plain: DurationText.Unit, in range: ClosedRange<Duration>) -> OptionType {
        let bounds = range.lowerBound == .nanoseconds(1)
            ? "more than 0 and at most \(DurationText.text(range.upperBound))"
            : "from \(DurationText.text(range.lowerBound)) to \(DurationText.text(range.upperBound))"
        let example = "such as 50ms, 1.5s or 2m (a plain number is \(plain.name))"
        return OptionType(
            placeholder: "duration",
            note: String(bounds.prefix(1)).uppercased() + String(bounds.dropFirst())
                + "; a number without a unit is \(plain.name).",
            read: { text, option throws(UsageError) in
                let shown = DisplayText.escaped(text)
                let duration: Duration
                do throws(DurationText.Failure) {
                    duration = try DurationText.parse(text, plain: plain)
                } catch .empty {
                    throw UsageError("\(option) takes a duration \(example), not an empty value")
                } catch .negative {
                    throw UsageError("\(option) takes a duration \(bounds), not the negative '\(shown)'")
                } catch .unknownUnit(let symbol) {
                    throw UsageError("\(option): unknown unit '\(DisplayText.escaped(symbol))' in '\(shown)': "
                        + "use ns, us, ms, s, m or h (a plain number is \(plain.name))")
                } catch .tooLong {
                    throw UsageError("\(option) takes a duration \(bounds), not '\(shown)' (too long)")
                } catch {
                    throw UsageError("\(option) takes a duration \(example), not '\(shown)'")
                }
                guard range.contains(duration) else {
                    throw UsageError("\(option) takes a duration \(bounds), not '\(shown)'")
                }
                return duration
            },
            text: { DurationText.text($0) })
    }
}
