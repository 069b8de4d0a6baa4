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

extension ParseError {
    /// The line and column (in Unicode scalars, both 1-based) of byte `offset` in UTF-8 `bytes`.
    ///
    /// - Complexity: O(offset); call it once, for the error.
    static func location(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (line: Int, column: Int) {
        var counter = LineCounter()
        let location = counter.location(of: offset, in: bytes)
        return (location.line, location.column)
    }
}

/// Counts lines and columns (in Unicode scalars, both 1-based) through UTF-8 text, on from the last offset it
/// was asked for, so a reader that asks for growing offsets counts through its input once.
struct LineCounter {
    private var offset = 0
    private var line = 1
    private var column = 1

    /// The place of byte `target` (offsets asked for must not go back).
    ///
    /// - Complexity: O(n) in the bytes counted through; line breaks are counted eight bytes at a time, and
    ///   columns only on the last line.
    mutating func location(of target: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        let end = min(target, bytes.count)
        guard end > offset, let base = bytes.baseAddress else { return SourceLocation(line: line, column: column) }
        var lineStart = end
        while lineStart > offset, base[lineStart - 1] != 0x0A { lineStart -= 1 }
        if lineStart > offset {
            line += Self.lineFeeds(in: base, from: offset, to: lineStart)
            column = 1
        }
        for index in lineStart..<end where base[index] & 0xC0 != 0x80 { column += 1 }
        offset = end
        return SourceLocation(line: line, column: column)
    }

    /// The number of LF bytes in `base[start..<end]`.
    private static func lineFeeds(in base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Int {
        var count = 0
        var index = start
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        while index + 8 <= end {
            // Exact per byte: the high bit of each byte of `mask` is set where the byte is LF.
            let word = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
            let mask = ~(((word & lows) &+ lows) | word | lows)
            count += mask.nonzeroBitCount
            index += 8
        }
        while index < end {
            if base[index] == 0x0A { count += 1 }
            index += 1
        }
        return count
    }
}

extension JSONSyntaxError {
    /// The line and column (both 1-based, columns in Unicode scalars) of the problem in `text`, the bytes that
    /// were read, so a file's error can name its place the way every parse error of the project does.
    package func location(in text: [UInt8]) -> (line: Int, column: Int) {
        text.withUnsafeBufferPointer { ParseError.location(of: offset, in: $0) }
    }
}
