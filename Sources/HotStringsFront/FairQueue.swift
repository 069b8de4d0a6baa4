/// A first-in, first-out queue of descriptors: the connections waiting for their turn with the core.
///
/// An array with a moving head, compacted once the consumed part is at least half of it, so both ends
/// are amortized O(1) for 10,000 connections.
struct FairQueue {
    private var items: [Int32] = []
    private var head = 0

    /// Whether no connection waits.
    var isEmpty: Bool { head == items.count }

    /// Adds `fd` at the back.
    mutating func append(_ fd: Int32) {
        items.append(fd)
    }

    /// Takes the connection at the front.
    mutating func popFirst() -> Int32? {
        guard head < items.count else { return nil }
        let fd = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 64, head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        return fd
    }
}
