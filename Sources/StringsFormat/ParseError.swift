/// Why a `.strings` file could not be read, and where.
///
/// Errors are values: the reason, a 1-based line and column (columns count Unicode scalars, so a
/// tab or an emoji is one column) and the byte offset in the input. `description` prints the
/// error compiler-style; `formatted(file:)` puts the file name in front, the way `swiftc` and
/// `clang` do, so editors can jump to it.
public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, in one sentence without a trailing period.
    public var reason: String
    /// The 1-based line of the offending character.
    public var line: Int
    /// The 1-based column (in Unicode scalars) of the offending character.
    public var column: Int
    /// The 0-based byte offset in the input as given (before any transcoding).
    public var byteOffset: Int

    /// Creates an error at a known place.
    public init(_ reason: String, line: Int, column: Int, byteOffset: Int = 0) {
        self.reason = reason
        self.line = line
        self.column = column
        self.byteOffset = byteOffset
    }

    /// `12:7: error: reason`.
    public var description: String { "\(line):\(column): error: \(reason)" }

    /// `path:12:7: error: reason`, the compiler-style line for `path`, made one line for a terminal: control
    /// characters in the path escaped, and in the reason (whose quoted keys are escaped already).
    public func formatted(file path: String) -> String {
        let reason = DisplayText.escaped(reason, keepingBackslashes: true)
        return "\(DisplayText.escaped(path)):\(line):\(column): error: \(reason)"
    }
}
