import StringsFormat

/// `status`' answer: the daemon's health, for people and monitoring. Members added to the protocol after the first
/// ones (`release` onwards) are read as absent when an older server leaves them out.
package struct StatusAnswer: AnswerBody {
    /// The release installed in the bundle (`releaseInfo`).
    package struct Release: Sendable, Equatable {
        /// The manifest's sequence number, when it has one.
        package var sequence: Int64?
        /// The id of the key that signed it, when it was pulled with trusted keys.
        package var signer: String?
        /// When it expires (RFC 3339), when it does.
        package var expires: String?

        /// A release's facts.
        package init(sequence: Int64?, signer: String?, expires: String?) {
            self.sequence = sequence
            self.signer = signer
            self.expires = expires
        }
    }

    /// Where a daemon that keeps pulling releases stands (`pull`). Times are RFC 3339 in UTC with milliseconds.
    package struct Pull: Sendable, Equatable {
        /// The manifest's URL, its user info shown as `***`.
        package var url: String
        /// Seconds between pulls that work.
        package var interval: Double
        /// Whether a pull runs now (`state`: `pulling`, else `waiting`).
        package var isPulling: Bool
        /// When the last pull ended; nil before the first.
        package var lastPull: String?
        /// How it ended: `installed`, `unchanged`, `not-modified`, `failed`; nil before the first.
        package var result: String?
        /// For `failed`: why nothing was installed.
        package var error: FileProblem?
        /// Failed pulls in a row.
        package var failures: Int
        /// When a pull last worked; nil before one did.
        package var lastSuccess: String?
        /// When the next pull starts; nil while one runs.
        package var nextPull: String?

        /// A puller's state.
        package init(url: String, interval: Double, isPulling: Bool, lastPull: String?, result: String?,
                     error: FileProblem?, failures: Int, lastSuccess: String?, nextPull: String?) {
            self.url = url
            self.interval = interval
            self.isPulling = isPulling
            self.lastPull = lastPull
            self.result = result
            self.error = error
            self.failures = failures
            self.lastSuccess = lastSuccess
            self.nextPull = nextPull
        }
    }

    /// The counts of the `missing` list (`missing`).
    package struct MissingCounts: Sendable, Equatable {
        /// Keys reported missing.
        package var missing: Int
        /// Keys reported answered by a fallback.
        package var fallback: Int
        /// Entries the daemon's cap dropped.
        package var dropped: Int64
        /// Lookups clients could not record.
        package var droppedByClients: Int64

        /// Counts.
        package init(missing: Int, fallback: Int, dropped: Int64, droppedByClients: Int64) {
            self.missing = missing
            self.fallback = fallback
            self.dropped = dropped
            self.droppedByClients = droppedByClients
        }
    }

    /// The bundle root.
    package var root: String
    /// Whether the root exists now.
    package var isRootPresent: Bool
    /// Directories the watcher watches.
    package var watchedDirectories: Int
    /// Files tables are read from, parsed or not.
    package var files: Int
    /// (language, table) pairs served.
    package var tables: Int
    /// Subscribed clients.
    package var subscribers: Int
    /// Connected clients.
    package var connections: Int
    /// The latest problems, oldest first.
    package var lastErrors: [FileProblem]
    /// Seconds since the service started.
    package var uptime: Double
    /// Where the event stream stands.
    package var position: StreamPosition
    /// The id of the release installed in the bundle; nil for a bundle not fed by releases.
    package var release: String?
    /// That release's facts; nil without a release.
    package var releaseInfo: Release?
    /// Why `set` and `remove` are refused for the whole bundle; nil when they are not.
    package var readOnly: String?
    /// The puller's state; nil unless the server keeps pulling.
    package var pull: Pull?
    /// The counts of the `missing` list.
    package var missing: MissingCounts?
    /// The page's address with its token; nil when no page is served.
    package var webURL: String?

    /// An answer; the members from `release` on are set one by one.
    package init(root: String, isRootPresent: Bool, watchedDirectories: Int, files: Int, tables: Int,
                 subscribers: Int, connections: Int, lastErrors: [FileProblem], uptime: Double,
                 position: StreamPosition) {
        self.root = root
        self.isRootPresent = isRootPresent
        self.watchedDirectories = watchedDirectories
        self.files = files
        self.tables = tables
        self.subscribers = subscribers
        self.connections = connections
        self.lastErrors = lastErrors
        self.uptime = uptime
        self.position = position
    }

    package init(_ fields: AnswerFields) throws(MalformedMessage) {
        let reader = fields.reader("status")
        self.init(root: try reader.string("root"), isRootPresent: try reader.bool("rootPresent"),
                  watchedDirectories: try reader.int("watchedDirectories"), files: try reader.int("files"),
                  tables: try reader.int("tables"), subscribers: try reader.int("subscribers"),
                  connections: try reader.int("connections"),
                  lastErrors: try reader.array("lastErrors").map { error throws(MalformedMessage) in
                      try FileProblem(error)
                  },
                  uptime: try reader.double("uptime"),
                  position: StreamPosition(epoch: try reader.count("epoch"), seq: try reader.count("seq")))
        release = try reader.optionalString("release")
        if let info = try reader.optionalObject("releaseInfo") {
            let sequence = try info.optionalInt64("sequence")
            releaseInfo = Release(sequence: sequence, signer: try info.optionalString("signer"),
                                  expires: try info.optionalString("expires"))
        }
        readOnly = try reader.optionalString("readOnly")
        if let pull = try reader.optionalObject("pull") {
            self.pull = Pull(
                url: try pull.string("url"), interval: try pull.double("interval"),
                isPulling: try pull.string("state") == "pulling", lastPull: try pull.optionalString("lastPull"),
                result: try pull.optionalString("result"),
                error: try pull.optionalObject("error").map { error throws(MalformedMessage) in
                    try FileProblem(error)
                },
                failures: try pull.int("failures"), lastSuccess: try pull.optionalString("lastSuccess"),
                nextPull: try pull.optionalString("nextPull"))
        }
        if let missing = try reader.optionalObject("missing") {
            self.missing = MissingCounts(
                missing: try missing.int("missing"), fallback: try missing.int("fallback"),
                dropped: try missing.int64("dropped"), droppedByClients: try missing.int64("droppedByClients"))
        }
        webURL = try reader.optionalObject("web").map { web throws(MalformedMessage) in try web.string("url") }
    }

    package func appendMembers(to out: inout [UInt8]) {
        var members: [(String, JSONValue)] = [
            ("root", .string(root)), ("rootPresent", .bool(isRootPresent)),
            ("watchedDirectories", .integer(watchedDirectories)), ("files", .integer(files)),
            ("tables", .integer(tables)), ("subscribers", .integer(subscribers)),
            ("connections", .integer(connections)), ("lastErrors", .array(lastErrors.map(\.json))),
            ("uptime", .double(uptime)), ("epoch", .integer(position.epoch)), ("seq", .integer(position.seq)),
            ("release", .string(orNull: release)),
            ("releaseInfo", releaseInfo.map { info in
                .object([("sequence", info.sequence.map(JSONValue.number) ?? .null),
                         ("signer", .string(orNull: info.signer)), ("expires", .string(orNull: info.expires))])
            } ?? .null),
            ("readOnly", .string(orNull: readOnly)),
            ("pull", pull.map { pull in
                .object([
                    ("url", .string(pull.url)), ("interval", .double(pull.interval)),
                    ("state", .string(pull.isPulling ? "pulling" : "waiting")),
                    ("lastPull", .string(orNull: pull.lastPull)), ("result", .string(orNull: pull.result)),
                    ("error", pull.error?.json ?? .null), ("failures", .integer(pull.failures)),
                    ("lastSuccess", .string(orNull: pull.lastSuccess)), ("nextPull", .string(orNull: pull.nextPull)),
                ])
            } ?? .null),
        ]
        if let missing {
            members.append(("missing", .object([
                ("missing", .integer(missing.missing)), ("fallback", .integer(missing.fallback)),
                ("dropped", .number(missing.dropped)), ("droppedByClients", .number(missing.droppedByClients)),
            ])))
        }
        members.append(("web", webURL.map { .object([("url", .string($0))]) } ?? .null))
        Self.append(members, to: &out)
    }
}

extension FileProblem {
    /// `{file, line, column, message}`, an unknown line or column as null: as `status` and a pull's error show it.
    var json: JSONValue {
        .object([("file", .string(file)), ("line", line.map { .integer($0) } ?? .null),
                 ("column", column.map { .integer($0) } ?? .null), ("message", .string(message))])
    }

    /// Reads `{file, line, column, message}`.
    init(_ reader: MemberReader) throws(MalformedMessage) {
        self.init(file: try reader.string("file"), line: try reader.optionalInt("line"),
                  column: try reader.optionalInt("column"), message: try reader.string("message"))
    }
}
