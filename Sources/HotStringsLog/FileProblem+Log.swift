import StringsFormat

extension FileProblem {
    /// Where the problem is, as a record's metadata: `file`, and `line` and `column` when they are known.
    package var logMetadata: LogSink.Metadata {
        var metadata = ["file": file]
        if let line { metadata["line"] = "\(line)" }
        if let column { metadata["column"] = "\(column)" }
        return metadata
    }
}
