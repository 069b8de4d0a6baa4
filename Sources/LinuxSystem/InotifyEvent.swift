import Glibc

/// The bits of an inotify watch mask or event mask (`IN_*` from `<sys/inotify.h>`).
package struct InotifyMask: OptionSet, Sendable, Hashable, CustomStringConvertible {
    /// The C mask bits.
    package let rawValue: UInt32

    /// Wraps C mask bits.
    package init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// `IN_ACCESS`: a file was read.
    package static let access = InotifyMask(rawValue: UInt32(IN_ACCESS))
    /// `IN_MODIFY`: a file was written.
    package static let modify = InotifyMask(rawValue: UInt32(IN_MODIFY))
    /// `IN_ATTRIB`: metadata changed (permissions, timestamps, link count, ownership).
    package static let attrib = InotifyMask(rawValue: UInt32(IN_ATTRIB))
    /// `IN_CLOSE_WRITE`: a file opened for writing was closed.
    package static let closeWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_WRITE))
    /// `IN_CLOSE_NOWRITE`: a file not opened for writing was closed.
    package static let closeNoWrite = InotifyMask(rawValue: UInt32(IN_CLOSE_NOWRITE))
    /// `IN_OPEN`: a file or directory was opened.
    package static let open = InotifyMask(rawValue: UInt32(IN_OPEN))
    /// `IN_MOVED_FROM`: an entry was renamed away from the watched directory (paired by `cookie`).
    package static let movedFrom = InotifyMask(rawValue: UInt32(IN_MOVED_FROM))
    /// `IN_MOVED_TO`: an entry was renamed into the watched directory (paired by `cookie`).
    package static let movedTo = InotifyMask(rawValue: UInt32(IN_MOVED_TO))
    /// `IN_CREATE`: an entry was created in the watched directory.
    package static let create = InotifyMask(rawValue: UInt32(IN_CREATE))
    /// `IN_DELETE`: an entry was deleted from the watched directory.
    package static let delete = InotifyMask(rawValue: UInt32(IN_DELETE))
    /// `IN_DELETE_SELF`: the watched object itself was deleted.
    package static let deleteSelf = InotifyMask(rawValue: UInt32(IN_DELETE_SELF))
    /// `IN_MOVE_SELF`: the watched object itself was renamed.
    package static let moveSelf = InotifyMask(rawValue: UInt32(IN_MOVE_SELF))
    /// `IN_UNMOUNT` (event only): the file system holding the watched object was unmounted.
    package static let unmount = InotifyMask(rawValue: UInt32(IN_UNMOUNT))
    /// `IN_Q_OVERFLOW` (event only, watch -1): the kernel's queue overflowed and events were lost.
    package static let queueOverflow = InotifyMask(rawValue: UInt32(IN_Q_OVERFLOW))
    /// `IN_IGNORED` (event only): the watch was removed, explicitly or because its object is gone.
    package static let ignored = InotifyMask(rawValue: UInt32(IN_IGNORED))
    /// `IN_ISDIR` (event only): the subject of the event is a directory.
    package static let isDirectory = InotifyMask(rawValue: UInt32(IN_ISDIR))
    /// `IN_ONLYDIR` (watch only): fail with `ENOTDIR` unless the path is a directory.
    package static let onlyDirectory = InotifyMask(rawValue: UInt32(IN_ONLYDIR))
    /// `IN_DONT_FOLLOW` (watch only): do not follow a symbolic link at the path.
    package static let dontFollow = InotifyMask(rawValue: UInt32(IN_DONT_FOLLOW))
    /// `IN_EXCL_UNLINK` (watch only): no events for children after they are unlinked.
    package static let excludeUnlinked = InotifyMask(rawValue: UInt32(IN_EXCL_UNLINK))
    /// `IN_MASK_ADD` (watch only): add to an existing watch's mask instead of replacing it.
    package static let maskAdd = InotifyMask(rawValue: UInt32(IN_MASK_ADD))
    /// `IN_ONESHOT` (watch only): remove the watch after its first event.
    package static let oneShot = InotifyMask(rawValue: UInt32(IN_ONESHOT))

    /// `IN_CLOSE`: either close event.
    package static let close: InotifyMask = [.closeWrite, .closeNoWrite]
    /// `IN_MOVE`: either half of a rename.
    package static let move: InotifyMask = [.movedFrom, .movedTo]

    private static let names: [(InotifyMask, String)] = [
        (.access, "ACCESS"), (.modify, "MODIFY"), (.attrib, "ATTRIB"), (.closeWrite, "CLOSE_WRITE"),
        (.closeNoWrite, "CLOSE_NOWRITE"), (.open, "OPEN"), (.movedFrom, "MOVED_FROM"), (.movedTo, "MOVED_TO"),
        (.create, "CREATE"), (.delete, "DELETE"), (.deleteSelf, "DELETE_SELF"), (.moveSelf, "MOVE_SELF"),
        (.unmount, "UNMOUNT"), (.queueOverflow, "Q_OVERFLOW"), (.ignored, "IGNORED"), (.isDirectory, "ISDIR"),
        (.onlyDirectory, "ONLYDIR"), (.dontFollow, "DONT_FOLLOW"), (.excludeUnlinked, "EXCL_UNLINK"),
        (.maskAdd, "MASK_ADD"), (.oneShot, "ONESHOT"),
    ]

    /// The set bits by their C names without the `IN_` prefix, such as "CREATE|ISDIR"; unknown bits in hex.
    package var description: String {
        var parts: [String] = []
        var rest = rawValue
        for (bit, name) in Self.names where contains(bit) {
            parts.append(name)
            rest &= ~bit.rawValue
        }
        if rest != 0 || parts.isEmpty {
            parts.append("0x" + String(rest, radix: 16))
        }
        return parts.joined(separator: "|")
    }
}

/// One decoded `struct inotify_event`.
package struct InotifyEvent: Sendable, Hashable {
    /// The watch descriptor the event belongs to; -1 for `queueOverflow`.
    package var watch: Int32
    /// What happened.
    package var mask: InotifyMask
    /// Pairs the `movedFrom` and `movedTo` halves of one rename; 0 otherwise.
    package var cookie: UInt32
    /// The entry's name inside the watched directory; "" when the event concerns the watched object itself.
    ///
    /// A name that is not UTF-8 shows its other bytes as `\xFF` (see `FileName`) and is no path to the entry.
    package var name: String
    /// Whether `name` is the entry's name as it is (false: it was not UTF-8, and `name` only shows it).
    package var isNameValidUTF8: Bool

    /// Makes an event, as the decoder does (and tests of its consumers).
    package init(watch: Int32, mask: InotifyMask, cookie: UInt32 = 0, name: String = "", isNameValidUTF8: Bool = true) {
        self.watch = watch
        self.mask = mask
        self.cookie = cookie
        self.name = name
        self.isNameValidUTF8 = isNameValidUTF8
    }
}

/// Decodes the variable-length `struct inotify_event` records that one `read` of an inotify descriptor returns.
package enum InotifyEventDecoder {
    /// The fixed part of a record: `wd`, `mask`, `cookie` and `len`, four 32-bit fields.
    package static let headerSize = 16

    /// Decodes every whole record in `bytes`, in order.
    ///
    /// Each record is the header followed by `len` bytes of name, NUL-terminated and padded with NULs. The
    /// kernel never splits a record across reads, but a tail too short for its header or its name is ignored
    /// rather than trusted, so this is safe on any bytes.
    /// - Complexity: O(n) in the number of bytes.
    package static func decode(_ bytes: UnsafeRawBufferPointer) -> [InotifyEvent] {
        var events: [InotifyEvent] = []
        var offset = 0
        while bytes.count - offset >= headerSize {
            let watch = bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self)
            let mask = bytes.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
            let cookie = bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt32.self)
            let nameLength = Int(bytes.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
            let nameStart = offset + headerSize
            guard nameLength <= bytes.count - nameStart else {
                break
            }
            var nameEnd = nameStart
            while nameEnd < nameStart + nameLength && bytes[nameEnd] != 0 {
                nameEnd += 1
            }
            let name = FileName.decode(UnsafeRawBufferPointer(rebasing: bytes[nameStart..<nameEnd]))
            events.append(InotifyEvent(watch: watch, mask: InotifyMask(rawValue: mask), cookie: cookie,
                                       name: name.name, isNameValidUTF8: name.isValidUTF8))
            offset = nameStart + nameLength
        }
        return events
    }

    /// Decodes every whole record in `bytes`; see `decode(_:)` on a raw buffer.
    package static func decode(_ bytes: [UInt8]) -> [InotifyEvent] {
        bytes.withUnsafeBytes { decode($0) }
    }
}
