/// A file that could not be read or parsed, with where in it the problem is when that is known.
public struct FileProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path relative to the bundle root, such as `de.lproj/Localizable.strings`.
    public var file: String
    /// The 1-based line, when the problem has one.
    public var line: Int?
    /// The 1-based column, when the problem has one.
    public var column: Int?
    /// What went wrong.
    public var message: String

    /// Creates a problem report.
    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// Reports a parse error of `file` at the error's line and column.
    public init(file: String, _ error: ParseError) {
        self.init(file: file, line: error.line, column: error.column, message: error.reason)
    }

    /// `file:line:column: error: message`, leaving out what is unknown, with control characters in the file name
    /// and the message escaped (so that a file named `a\nhotstrings: info: …` cannot forge a log line).
    public var description: String {
        var place = DisplayText.escaped(file)
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): error: \(DisplayText.escaped(message))"
    }
}
