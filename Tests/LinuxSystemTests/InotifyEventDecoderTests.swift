import LinuxSystem
import Testing

/// The bytes of one `struct inotify_event` as the kernel lays it out (little-endian on this machine): the name
/// NUL-terminated and padded with NULs to a multiple of `padding` bytes, or no name bytes at all when empty.
func inotifyRecord(watch: Int32, mask: InotifyMask, cookie: UInt32 = 0, name: String = "", padding: Int = 16)
    -> [UInt8]
{
    var nameBytes = Array(name.utf8)
    if !nameBytes.isEmpty {
        nameBytes.append(0)
        while nameBytes.count % padding != 0 {
            nameBytes.append(0)
        }
    }
    var bytes: [UInt8] = []
    for field in [UInt32(bitPattern: watch), mask.rawValue, cookie, UInt32(nameBytes.count)] {
        withUnsafeBytes(of: field.littleEndian) { bytes += $0 }
    }
    return bytes + nameBytes
}

@Suite struct InotifyEventDecoderTests {
    @Test func decodesOneEvent() {
        let bytes = inotifyRecord(watch: 3, mask: .closeWrite, name: "Localizable.strings")
        #expect(bytes.count == 16 + 32)
        let expected = InotifyEvent(watch: 3, mask: .closeWrite, name: "Localizable.strings")
        #expect(InotifyEventDecoder.decode(bytes) == [expected])
    }

    @Test func decodesSeveralEventsInOneBuffer() {
        let bytes = inotifyRecord(watch: 1, mask: .movedFrom, cookie: 77, name: ".a.strings.swp")
            + inotifyRecord(watch: 2, mask: .movedTo, cookie: 77, name: "a.strings")
            + inotifyRecord(watch: 1, mask: [.create, .isDirectory], name: "de.lproj")
            + inotifyRecord(watch: 2, mask: .deleteSelf)
        #expect(InotifyEventDecoder.decode(bytes) == [
            InotifyEvent(watch: 1, mask: .movedFrom, cookie: 77, name: ".a.strings.swp"),
            InotifyEvent(watch: 2, mask: .movedTo, cookie: 77, name: "a.strings"),
            InotifyEvent(watch: 1, mask: [.create, .isDirectory], name: "de.lproj"),
            InotifyEvent(watch: 2, mask: .deleteSelf),
        ])
    }

    @Test(arguments: [
        ("a", 4), ("abc", 4), ("abcd", 4), ("a", 16), ("exactly15chars_", 16), ("sixteen_chars_xx", 16),
        ("Ünïcødé.strings", 16), ("x", 1),
    ])
    func stripsTheNULPadding(name: String, padding: Int) {
        let bytes = inotifyRecord(watch: 9, mask: .create, name: name, padding: padding)
        #expect((bytes.count - 16) % padding == 0)
        let events = InotifyEventDecoder.decode(bytes + inotifyRecord(watch: 9, mask: .delete, name: "next"))
        #expect(events.map(\.name) == [name, "next"])
    }

    @Test func decodesAnEventWithoutAName() {
        let events = InotifyEventDecoder.decode(inotifyRecord(watch: 4, mask: [.ignored]))
        #expect(events == [InotifyEvent(watch: 4, mask: .ignored, cookie: 0, name: "")])
    }

    @Test func decodesAQueueOverflow() {
        let events = InotifyEventDecoder.decode(inotifyRecord(watch: -1, mask: .queueOverflow))
        #expect(events == [InotifyEvent(watch: -1, mask: .queueOverflow)])
        #expect(events.first?.watch == -1)
    }

    @Test(arguments: [1, 8, 15, 16, 20, 31])
    func ignoresATruncatedTrailingRecord(keptBytesOfSecondRecord: Int) {
        let first = inotifyRecord(watch: 1, mask: .closeWrite, name: "a.strings")
        let second = inotifyRecord(watch: 1, mask: .closeWrite, name: "b.strings")
        #expect(second.count == 32)
        let events = InotifyEventDecoder.decode(first + second.prefix(keptBytesOfSecondRecord))
        #expect(events == [InotifyEvent(watch: 1, mask: .closeWrite, name: "a.strings")])
    }

    @Test func ignoresANameLengthBeyondTheBuffer() {
        var bytes = inotifyRecord(watch: 1, mask: .create, name: "a")
        bytes[12] = 0xFF
        bytes[15] = 0x7F
        #expect(InotifyEventDecoder.decode(bytes).isEmpty)
    }

    @Test func decodesNothingFromNoBytes() {
        #expect(InotifyEventDecoder.decode([]).isEmpty)
    }

    @Test(arguments: [
        (InotifyMask([.create, .isDirectory]), "CREATE|ISDIR"),
        (InotifyMask.queueOverflow, "Q_OVERFLOW"),
        (InotifyMask([.closeWrite, .oneShot]), "CLOSE_WRITE|ONESHOT"),
        (InotifyMask(rawValue: 0), "0x0"),
        (InotifyMask(rawValue: 0x0000_1002), "MODIFY|0x1000"),
    ])
    func describesMasksByTheirCNames(mask: InotifyMask, expected: String) {
        #expect(mask.description == expected)
    }
}
