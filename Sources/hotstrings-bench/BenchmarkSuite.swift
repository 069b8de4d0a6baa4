/// One benchmark suite: a subcommand of `hotstrings-bench`.
protocol BenchmarkSuite {
    /// The subcommand name, e.g. `parse`.
    static var name: String { get }
    /// One line for `hotstrings-bench --help`.
    static var abstract: String { get }
    /// The suite's own usage text, printed for `--help` and after a usage error.
    static var help: String { get }
    /// Runs the suite with the arguments after its name and returns the process exit status.
    static func run(arguments: [String]) throws -> Int32
}

/// A command-line mistake: reported with the suite's help and exit status 64.
struct UsageError: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

/// A minimal `--option value` reader: suites take few options, so no parser library is needed.
struct OptionReader {
    private var remaining: [String]

    init(_ arguments: [String]) { remaining = arguments }

    /// Removes `--name` and returns whether it was present.
    mutating func flag(_ name: String) -> Bool {
        guard let index = remaining.firstIndex(of: name) else { return false }
        remaining.remove(at: index)
        return true
    }

    /// Removes `--name VALUE` (or `--name=VALUE`) and returns the value.
    mutating func value(_ name: String) throws(UsageError) -> String? {
        if let index = remaining.firstIndex(where: { $0.hasPrefix(name + "=") }) {
            let value = String(remaining[index].dropFirst(name.count + 1))
            remaining.remove(at: index)
            return value
        }
        guard let index = remaining.firstIndex(of: name) else { return nil }
        guard index + 1 < remaining.count else { throw UsageError("\(name) needs a value") }
        let value = remaining[index + 1]
        remaining.removeSubrange(index...(index + 1))
        return value
    }

    /// Removes `--name N` and returns N, which must be a positive integer.
    mutating func positiveInteger(_ name: String) throws(UsageError) -> Int? {
        guard let text = try value(name) else { return nil }
        guard let number = Int(text), number > 0 else {
            throw UsageError("\(name) needs a positive integer, not '\(text)'")
        }
        return number
    }

    /// Fails on anything not consumed by the calls before.
    func finish() throws(UsageError) {
        if let first = remaining.first { throw UsageError("unexpected argument '\(first)'") }
    }
}
