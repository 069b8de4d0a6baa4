/// SplitMix64: a tiny, fast, seedable generator, so that random input (garbage for a parser, a fuzzed request, a
/// benchmark's generated tables) can be drawn again from its seed; the standard library's generator is not seedable.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The seed the generator started from, for a failure's message.
    package let seed: UInt64
    private var state: UInt64

    /// A generator whose numbers are the same on every run with the same `seed`.
    package init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A number from 0 up to `bound`, exclusive; `bound` must be positive.
    package mutating func number(below bound: Int) -> Int {
        Int.random(in: 0..<bound, using: &self)
    }

    /// True `percent` times in a hundred.
    package mutating func chance(percent: Int) -> Bool {
        number(below: 100) < percent
    }
}
