import HotStringsService
import LinuxSystem

/// The I/O loop's connections, by descriptor and by client ID, with what the loop keeps for each.
///
/// A slot per descriptor number: the kernel hands out the lowest free numbers, so the slots are about as many as the
/// most descriptors open at once, and finding a connection is an index, not a hash (an event for 10,000 subscribers
/// looks each up once by ID, then by descriptor in each pass).
struct ConnectionTable {
    /// A connection and the loop's bookkeeping of it.
    struct Entry {
        var connection: Connection
        /// What the poller waits for on it now.
        var interest: EventPoller.Interest
        /// In the loop's queue of connections waiting for a turn with the core.
        var isAwaitingTurn = false
        /// In the loop's list of connections to write to in this pass.
        var isFlushQueued = false
        /// In the loop's list of connections whose interest is looked at again at the end of this pass.
        var isInterestQueued = false
    }

    private var slots: [Entry?] = []
    private var descriptors: [ClientID: Int32] = [:]
    /// The page's connections: their deadlines and their cap are looked at every pass, a few among thousands of
    /// socket clients.
    private(set) var pageDescriptors: Set<Int32> = []
    /// How many connections there are.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// The entry of `fd`, if it is a connection.
    subscript(fd: Int32) -> Entry? {
        let index = Int(fd)
        return index >= 0 && index < slots.count ? slots[index] : nil
    }

    /// The descriptor of the client `id`, if it is connected.
    func descriptor(of id: ClientID) -> Int32? { descriptors[id] }

    /// Every connection's descriptor.
    var allDescriptors: [Int32] {
        slots.indices.compactMap { slots[$0] == nil ? nil : Int32($0) }
    }

    /// Adds the connection `entry` on `fd`.
    /// - Precondition: `fd` holds no connection.
    mutating func insert(_ entry: Entry, at fd: Int32) {
        let index = Int(fd)
        precondition(index >= 0, "a descriptor is never negative")
        if index >= slots.count { slots.append(contentsOf: repeatElement(nil, count: index + 1 - slots.count)) }
        precondition(slots[index] == nil, "descriptor \(fd) already holds a connection")
        slots[index] = entry
        descriptors[entry.connection.id] = fd
        if entry.connection.isHTTP { pageDescriptors.insert(fd) }
        count += 1
    }

    /// Removes the connection on `fd` and returns it.
    mutating func remove(_ fd: Int32) -> Entry? {
        guard let entry = self[fd] else { return nil }
        slots[Int(fd)] = nil
        descriptors[entry.connection.id] = nil
        pageDescriptors.remove(fd)
        count -= 1
        return entry
    }

    /// Changes the entry of `fd` in place with `body`, and returns what it returns; nil when `fd` is no connection.
    @discardableResult
    mutating func update<Result>(_ fd: Int32, _ body: (inout Entry) -> Result) -> Result? {
        let index = Int(fd)
        guard index >= 0, index < slots.count else { return nil }
        // Optional chaining changes the entry in place; comparing it with nil first would copy it (a retain and a
        // release of each of its buffers, for every subscriber of an event).
        return slots[index]?.change(body)
    }
}

extension ConnectionTable.Entry {
    /// Runs `body` on the entry in place.
    fileprivate mutating func change<Result>(_ body: (inout Self) -> Result) -> Result { body(&self) }
}
