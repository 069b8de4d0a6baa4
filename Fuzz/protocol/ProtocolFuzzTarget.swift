// Differential fuzz target: JSONValue(parsing:) against Foundation's JSONSerialization, plus the decoders.
//
// Built by Fuzz/protocol/run.sh together with the HotStringsProtocol sources in one module (so no import):
//   swiftc -sanitize=fuzzer,address -parse-as-library -O Sources/HotStringsProtocol/*.swift Fuzz/protocol/*.swift
// Every input is parsed by both JSON parsers. When both succeed, the values must be equal as `JSONEquality`
// defines it; when exactly one succeeds, one of the intentional divergences in ProtocolDivergences.swift must
// explain it. Our value must also survive `serialized()` and a parse back unchanged, on one line. Then the
// input goes where untrusted lines go: through a LineFramer into RequestDecoder (the daemon) and into
// ServerMessage.decode and ServerEvent(name:body:) (the client), which must return or throw, never crash;
// a request they decode must come back unchanged from RequestEncoder. Anything else prints what happened and
// traps, and libFuzzer saves the input as a crash file.
import Foundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    let fuzzCase = ProtocolFuzzCase(bytes: Array(bytes))
    if let problem = fuzzCase.unexplainedDifference() ?? fuzzCase.roundTripProblem() {
        fuzzCase.report(problem)
        fatalError("protocol fuzz finding: \(problem)")
    }
    if let problem = DecoderExercise.run(on: fuzzCase) {
        fuzzCase.report(problem)
        fatalError("protocol fuzz finding: \(problem)")
    }
    if explainsOutcomes { FileHandle.standardError.write(Data((fuzzCase.outcome + "\n").utf8)) }
    return 0
}

/// `HOTSTRINGS_FUZZ_EXPLAIN=1` prints how each input was judged (for running the target on a few files).
let explainsOutcomes = ProcessInfo.processInfo.environment["HOTSTRINGS_FUZZ_EXPLAIN"] == "1"

/// One input with both parsers' results.
struct ProtocolFuzzCase {
    let bytes: [UInt8]
    let ours: Result<JSONValue, JSONSyntaxError>
    /// Foundation's value, or its error as text.
    let foundation: Result<Any, FoundationFailure>

    /// `JSONSerialization` threw; the message is kept for the report.
    struct FoundationFailure: Error {
        let message: String
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
        ours = Result { () throws(JSONSyntaxError) in try JSONValue(parsing: bytes) }
        do {
            foundation = .success(try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]))
        } catch {
            foundation = .failure(FoundationFailure(message: "\(error)"))
        }
    }

    var ourValue: JSONValue? { try? ours.get() }
    var ourError: JSONSyntaxError? {
        if case .failure(let error) = ours { return error }
        return nil
    }
    var foundationValue: Any? { try? foundation.get() }
    var foundationFailed: Bool { foundationValue == nil }

    /// Why this case is a finding, or nil when the parsers agree or differ in a documented way.
    func unexplainedDifference() -> String? {
        switch (ours, foundation) {
        case (.failure, .failure):
            return nil
        case (.success(let value), .success(let theirs)):
            guard let difference = JSONEquality.difference(value, theirs) else { return nil }
            return ProtocolDivergence.explaining(self) == nil ? "values differ: \(difference)" : nil
        case (.success, .failure), (.failure, .success):
            return ProtocolDivergence.explaining(self) == nil ? "only one parser accepted the input" : nil
        }
    }

    /// Why our value does not survive `serialized()` and a parse back, or nil when it does.
    ///
    /// The writer's promises are checked too: one line (no raw `"\n"`, U+2028 or U+2029), and NaN and the
    /// infinities (which the parser gives for numbers beyond `Double`) written as `null`.
    func roundTripProblem() -> String? {
        guard let value = ourValue else { return nil }
        let text = value.serialized()
        if text.contains(0x0A) { return "serialized value contains a raw newline" }
        let lineBreaks: Set<Unicode.Scalar> = ["\u{2028}", "\u{2029}"]
        if String(decoding: text, as: UTF8.self).unicodeScalars.contains(where: lineBreaks.contains) {
            return "serialized value contains a raw U+2028 or U+2029"
        }
        let reparsed: JSONValue
        do {
            reparsed = try JSONValue(parsing: text)
        } catch {
            return "serialized value does not parse: \(error) in \(FuzzText.escaped(text.prefix(300)))"
        }
        if let difference = JSONEquality.difference(JSONEquality.writtenForm(of: value), reparsed) {
            return "value changed through serialized(): \(difference)"
        }
        return nil
    }

    /// One line saying what each parser did and which divergence, if any, explains the difference.
    var outcome: String {
        let ourSide = ourValue.map { "ours: \(JSONEquality.kind(of: $0))" } ?? "ours: threw \(ourError!)"
        let theirSide = foundationValue.map { "Foundation: \(type(of: $0))" } ?? "Foundation: failed"
        let verdict = ProtocolDivergence.explaining(self).map { "divergence: \($0.name)" } ?? "agree"
        return "\(ourSide); \(theirSide); \(verdict)"
    }

    /// Prints both results so that the crash log alone explains the finding.
    func report(_ problem: String) {
        var lines = ["", "==== HotStrings protocol fuzz finding: \(problem)"]
        lines.append("input (\(bytes.count) bytes): \(FuzzText.escaped(bytes.prefix(600)))")
        switch ours {
        case .success(let value): lines.append("ours: \(String(describing: value).prefix(600))")
        case .failure(let error): lines.append("ours: threw \(error)")
        }
        switch foundation {
        case .success(let value):
            lines.append("Foundation: \(type(of: value)): \(String(describing: value).prefix(600))")
        case .failure(let failure): lines.append("Foundation: threw \(failure.message.prefix(300))")
        }
        lines.append("Fix the bug (keep the input as a test in Tests/HotStringsProtocolTests) or add a divergence.")
        FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
    }
}

/// Feeds the input to the decoders the way the daemon and the client do; they must return or throw.
enum DecoderExercise {
    /// Runs every decoder on the input; returns a problem only when a decoded request does not round-trip.
    static func run(on fuzzCase: ProtocolFuzzCase) -> String? {
        // The daemon: bytes through the framer (default 64 KiB cap), each line to RequestDecoder.
        var framer = LineFramer()
        framer.append(contentsOf: fuzzCase.bytes)
        framer.append(contentsOf: [0x0A])  // the input's last line, as if its newline had come
        var lines: [[UInt8]] = []
        while case .success(let line)? = framer.nextLine() { lines.append(line) }
        for line in lines {
            if let problem = decodeRequest(line) { return problem }
            decodeServerLine(line)
        }
        // The whole input as one line too, newlines and all, as a caller without a framer would pass it.
        if lines.count != 1 {
            if let problem = decodeRequest(fuzzCase.bytes) { return problem }
            decodeServerLine(fuzzCase.bytes)
        }
        // Every event payload reader on whatever value the input is, to reach them without an "event" member.
        if let value = fuzzCase.ourValue {
            for name in ["snapshot", "reload", "error", "language", "resync", "future-event"] {
                _ = try? ServerEvent(name: name, body: value)
            }
        }
        return nil
    }

    /// Decodes one request line; a request it decodes must come back unchanged from RequestEncoder.
    static func decodeRequest(_ line: [UInt8]) -> String? {
        let (id, result) = RequestDecoder.decode(line)
        guard case .success(let request) = result else { return nil }
        let encoded = RequestEncoder.encode(id: id ?? .number(0), request)
        let (idAgain, again) = RequestDecoder.decode(encoded.dropLast())
        guard idAgain == (id ?? .number(0)), case .success(let requestAgain) = again, requestAgain == request else {
            return "request does not round-trip: \(request) became \(again) via "
                + FuzzText.escaped(encoded[...].prefix(300))
        }
        return nil
    }

    /// Decodes one server line as the client does: the message, then an event's typed payload.
    static func decodeServerLine(_ line: [UInt8]) {
        guard case .event(let name, _, _, let body)? = try? ServerMessage.decode(line) else { return }
        _ = try? ServerEvent(name: name, body: body)
    }
}
