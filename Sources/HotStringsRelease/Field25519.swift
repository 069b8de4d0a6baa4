/// An element of the field of integers modulo p = 2^255 - 19, the field Ed25519's curve is defined over (RFC 8032,
/// 5.1).
///
/// Five limbs of 51 bits, little end first; a limb may carry a few bits more between operations, and every
/// operation ends with a carry pass so that inputs stay small enough for products to fit in `UInt128`. The
/// arithmetic has no branches on the values, so signing takes the same path whatever the secret.
struct Field25519: Sendable {
    private static let mask: UInt64 = (1 << 51) - 1

    var limbs: (UInt64, UInt64, UInt64, UInt64, UInt64)

    static let zero = Field25519(limbs: (0, 0, 0, 0, 0))
    static let one = Field25519(limbs: (1, 0, 0, 0, 0))
    /// The curve's constant d = -121665/121666.
    static let d: Field25519 = zero - Field25519(small: 121_665) * Field25519(small: 121_666).inverted()
    static let d2: Field25519 = d + d
    /// A square root of -1: 2^((p-1)/4).
    static let squareRootOfMinusOne: Field25519 = Field25519(small: 2).raised(
        toLittleEndian: [0xfb] + [UInt8](repeating: 0xff, count: 30) + [0x1f]
    )

    init(limbs: (UInt64, UInt64, UInt64, UInt64, UInt64)) {
        self.limbs = limbs
    }

    init(small: UInt64) {
        self.limbs = (small, 0, 0, 0, 0)
    }

    /// The element whose 255-bit little-endian encoding is `bytes` (32 bytes); the top bit is ignored and a value
    /// of p or more is taken modulo p (callers that need canonical encodings compare `encoded` with the input).
    init(bytes: some RandomAccessCollection<UInt8>) {
        precondition(bytes.count == 32, "a field element is 32 bytes")
        var words: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.enumerated() { words[index / 8] |= UInt64(byte) << (8 * UInt64(index % 8)) }
        let mask = Self.mask
        limbs = (
            words[0] & mask,
            ((words[0] >> 51) | (words[1] << 13)) & mask,
            ((words[1] >> 38) | (words[2] << 26)) & mask,
            ((words[2] >> 25) | (words[3] << 39)) & mask,
            (words[3] >> 12) & mask
        )
        words.wipe()
    }

    /// The canonical 32-byte little-endian encoding (the value reduced below p; the top bit zero).
    var encoded: [UInt8] {
        var (l0, l1, l2, l3, l4) = carried.carried.limbs
        // l < 2^255 now; add 19 to see whether it is p or more, and if so subtract p (add 19, drop bit 255).
        var q = (l0 &+ 19) >> 51
        q = (l1 &+ q) >> 51
        q = (l2 &+ q) >> 51
        q = (l3 &+ q) >> 51
        q = (l4 &+ q) >> 51
        l0 &+= 19 &* q
        l1 &+= l0 >> 51
        l0 &= Self.mask
        l2 &+= l1 >> 51
        l1 &= Self.mask
        l3 &+= l2 >> 51
        l2 &= Self.mask
        l4 &+= l3 >> 51
        l3 &= Self.mask
        l4 &= Self.mask
        let words = [l0 | (l1 << 51), (l1 >> 13) | (l2 << 38), (l2 >> 26) | (l3 << 25), (l3 >> 39) | (l4 << 12)]
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for word in words {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift))) }
        }
        return bytes
    }

    /// Whether the canonical value is odd: the "sign" of x in a point's encoding.
    var isNegative: Bool { encoded[0] & 1 == 1 }

    var isZero: Bool { encoded.allSatisfy { $0 == 0 } }

    /// One pass of carries: each limb below 2^51 except the lowest, which takes 19 times the top carry.
    private var carried: Field25519 {
        var (l0, l1, l2, l3, l4) = limbs
        l1 &+= l0 >> 51
        l0 &= Self.mask
        l2 &+= l1 >> 51
        l1 &= Self.mask
        l3 &+= l2 >> 51
        l2 &= Self.mask
        l4 &+= l3 >> 51
        l3 &= Self.mask
        l0 &+= 19 &* (l4 >> 51)
        l4 &= Self.mask
        return Field25519(limbs: (l0, l1, l2, l3, l4))
    }

    static func + (a: Field25519, b: Field25519) -> Field25519 {
        Field25519(limbs: (
            a.limbs.0 &+ b.limbs.0, a.limbs.1 &+ b.limbs.1, a.limbs.2 &+ b.limbs.2, a.limbs.3 &+ b.limbs.3,
            a.limbs.4 &+ b.limbs.4
        )).carried
    }

    /// a - b, computed as a + 4p - b so that no limb goes below zero (b's limbs are below 2^53 after a carry).
    static func - (a: Field25519, b: Field25519) -> Field25519 {
        let low: UInt64 = 0x1F_FFFF_FFFF_FFB4  // 4 * (2^51 - 19)
        let high: UInt64 = 0x1F_FFFF_FFFF_FFFC  // 4 * (2^51 - 1)
        return Field25519(limbs: (
            a.limbs.0 &+ low &- b.limbs.0, a.limbs.1 &+ high &- b.limbs.1, a.limbs.2 &+ high &- b.limbs.2,
            a.limbs.3 &+ high &- b.limbs.3, a.limbs.4 &+ high &- b.limbs.4
        )).carried
    }

    static prefix func - (a: Field25519) -> Field25519 { zero - a }

    /// Schoolbook multiplication; a limb product above 2^255 folds back multiplied by 19 (2^255 = 19 mod p).
    static func * (a: Field25519, b: Field25519) -> Field25519 {
        let (a0, a1, a2, a3, a4) = (UInt128(a.limbs.0), UInt128(a.limbs.1), UInt128(a.limbs.2), UInt128(a.limbs.3),
                                    UInt128(a.limbs.4))
        let (b0, b1, b2, b3, b4) = (UInt128(b.limbs.0), UInt128(b.limbs.1), UInt128(b.limbs.2), UInt128(b.limbs.3),
                                    UInt128(b.limbs.4))
        let (b1x19, b2x19, b3x19, b4x19) = (b1 &* 19, b2 &* 19, b3 &* 19, b4 &* 19)
        var r0 = a0 &* b0 &+ a1 &* b4x19 &+ a2 &* b3x19 &+ a3 &* b2x19 &+ a4 &* b1x19
        var r1 = a0 &* b1 &+ a1 &* b0 &+ a2 &* b4x19 &+ a3 &* b3x19 &+ a4 &* b2x19
        var r2 = a0 &* b2 &+ a1 &* b1 &+ a2 &* b0 &+ a3 &* b4x19 &+ a4 &* b3x19
        var r3 = a0 &* b3 &+ a1 &* b2 &+ a2 &* b1 &+ a3 &* b0 &+ a4 &* b4x19
        var r4 = a0 &* b4 &+ a1 &* b3 &+ a2 &* b2 &+ a3 &* b1 &+ a4 &* b0
        let mask = UInt128(Self.mask)
        r1 &+= r0 >> 51
        r0 &= mask
        r2 &+= r1 >> 51
        r1 &= mask
        r3 &+= r2 >> 51
        r2 &= mask
        r4 &+= r3 >> 51
        r3 &= mask
        r0 &+= (r4 >> 51) &* 19
        r4 &= mask
        r1 &+= r0 >> 51
        r0 &= mask
        return Field25519(limbs: (
            UInt64(truncatingIfNeeded: r0), UInt64(truncatingIfNeeded: r1), UInt64(truncatingIfNeeded: r2),
            UInt64(truncatingIfNeeded: r3), UInt64(truncatingIfNeeded: r4)
        )).carried
    }

    var squared: Field25519 { self * self }

    /// self^e for an exponent given as little-endian bytes, by square-and-multiply from the top bit (the exponents
    /// used are public constants).
    func raised(toLittleEndian exponent: [UInt8]) -> Field25519 {
        var result = Field25519.one
        for byte in exponent.reversed() {
            for bit in (0..<8).reversed() {
                result = result.squared
                if (byte >> UInt8(bit)) & 1 == 1 { result = result * self }
            }
        }
        return result
    }

    /// The multiplicative inverse, self^(p-2) (zero stays zero).
    func inverted() -> Field25519 {
        raised(toLittleEndian: [0xeb] + [UInt8](repeating: 0xff, count: 30) + [0x7f])
    }

    /// self^((p-5)/8), the step of a square root (RFC 8032, 5.1.3).
    func raisedToPMinus5Over8() -> Field25519 {
        raised(toLittleEndian: [0xfd] + [UInt8](repeating: 0xff, count: 30) + [0x0f])
    }

    /// Whether two elements are equal modulo p.
    func isEqual(to other: Field25519) -> Bool { encoded == other.encoded }

    /// `a` if `choice` is 1, `b` if it is 0, without a branch on `choice`.
    static func select(_ a: Field25519, _ b: Field25519, choice: UInt64) -> Field25519 {
        let m = 0 &- choice
        return Field25519(limbs: (
            (a.limbs.0 & m) | (b.limbs.0 & ~m), (a.limbs.1 & m) | (b.limbs.1 & ~m), (a.limbs.2 & m) | (b.limbs.2 & ~m),
            (a.limbs.3 & m) | (b.limbs.3 & ~m), (a.limbs.4 & m) | (b.limbs.4 & ~m)
        ))
    }
}
