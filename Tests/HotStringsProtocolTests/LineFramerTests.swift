import Testing
import HotStringsProtocol

@Suite("Line framing")
struct LineFramerTests {
    /// Every line the framer has now, as strings; a too-long result ends the list as "<too long>".
    static func drain(_ framer: inout LineFramer) -> [String] {
        var lines: [String] = []
        while let next = framer.nextLine() {
            switch next {
            case .success(let line): lines.append(String(decoding: line, as: UTF8.self))
            case .failure:
                lines.append("<too long>")
                return lines
            }
        }
        return lines
    }

    static func append(_ text: String, to framer: inout LineFramer) {
        Array(text.utf8).withUnsafeBytes { framer.append($0) }
    }

    @Test("several lines in one append, and a partial line kept for later")
    func severalLines() {
        var framer = LineFramer()
        Self.append("one\ntwo\r\n\nthree", to: &framer)
        #expect(Self.drain(&framer) == ["one", "two", ""])
        #expect(framer.bufferedByteCount == 5)
        Self.append(" and more\n", to: &framer)
        #expect(Self.drain(&framer) == ["three and more"])
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.nextLine() == nil)
    }

    @Test("a line split across many appends, byte by byte, including CRLF")
    func splitLines() {
        var framer = LineFramer()
        var lines: [String] = []
        for byte in "{\"id\":1}\r\n{\"id\":2}\n".utf8 {
            framer.append(contentsOf: [byte])
            lines += Self.drain(&framer)
        }
        #expect(lines == [#"{"id":1}"#, #"{"id":2}"#])
    }

    @Test("only a carriage return right before the newline is stripped")
    func carriageReturns() {
        var framer = LineFramer()
        Self.append("a\rb\r\r\n\r\n", to: &framer)
        #expect(Self.drain(&framer) == ["a\rb\r", ""])
    }

    @Test("a line of exactly the cap is accepted, with LF or CRLF, whole or in pieces")
    func exactlyAtCap() {
        let line = String(repeating: "x", count: LineFramer.maximumLineLength)
        for ending in ["\n", "\r\n"] {
            var whole = LineFramer()
            Self.append(line + ending + "next\n", to: &whole)
            #expect(Self.drain(&whole) == [line, "next"])

            var pieces = LineFramer()
            Self.append(line, to: &pieces)
            #expect(pieces.nextLine() == nil)
            if ending == "\r\n" {
                Self.append("\r", to: &pieces)
                #expect(pieces.nextLine() == nil)
                Self.append("\n", to: &pieces)
            } else {
                Self.append("\n", to: &pieces)
            }
            #expect(Self.drain(&pieces) == [line])
            #expect(!pieces.hasFailed)
        }
    }

    @Test("one byte over the cap fails at once, without a newline, and stays failed")
    func overCapWithoutNewline() {
        var framer = LineFramer()
        Self.append("ok\n", to: &framer)
        Self.append(String(repeating: "y", count: LineFramer.maximumLineLength + 1), to: &framer)
        #expect(Self.drain(&framer) == ["ok", "<too long>"])
        #expect(framer.hasFailed)
        #expect(framer.bufferedByteCount == 0)
        Self.append("more\n", to: &framer)
        #expect(framer.bufferedByteCount == 0)
        #expect(framer.nextLine() == .failure(LineTooLong(maximumLineLength: 65_536)))
    }

    @Test("a complete line over the cap fails too, CR not counted but other bytes are")
    func overCapWithNewline() {
        var framer = LineFramer(maximumLineLength: 4)
        Self.append("abcd\r\nabcde\nlater\n", to: &framer)
        #expect(Self.drain(&framer) == ["abcd", "<too long>"])

        var partial = LineFramer(maximumLineLength: 4)
        Self.append("abcd\r", to: &partial)
        #expect(partial.nextLine() == nil)
        Self.append("x", to: &partial)
        #expect(Self.drain(&partial) == ["<too long>"])
    }

    @Test("a small cap splits many lines, and the buffer is reused")
    func manyLines() {
        var framer = LineFramer(maximumLineLength: 16)
        var received: [String] = []
        for index in 0..<10_000 {
            Self.append("line \(index)\n", to: &framer)
            if index % 7 == 0 { received += Self.drain(&framer) }
        }
        received += Self.drain(&framer)
        #expect(received.count == 10_000)
        #expect(received.last == "line 9999")
        #expect(framer.bufferedByteCount == 0)
        #expect(LineTooLong(maximumLineLength: 16).description == "line longer than 16 bytes")
    }
}
