/// Arithmetic modulo L = 2^252 + 27742317777372353535851937790883648493, the order of Ed25519's base point
/// (RFC 8032, 5.1): nonces, challenges and the S half of a signature live here. Scalars are 32 bytes little-endian.
///
/// Reduction is binary long division whose subtractions are selected by masks, not branches, so a secret nonce
/// takes the same path as any other.
enum Scalar25519 {
    /// L as four 64-bit limbs, little end first.
    static let order: (UInt64, UInt64, UInt64, UInt64) = (
        0x5812_631a_5cf5_d3ed, 0x14de_f9de_a2f7_9cd6, 0, 0x1000_0000_0000_0000
    )

    /// `bytes` (any length, little-endian) modulo L, as 32 bytes.
    static func reduced(_ bytes: [UInt8]) -> [UInt8] {
        var r: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for index in (0..<(bytes.count * 8)).reversed() {
            let bit = UInt64((bytes[index / 8] >> UInt8(index % 8)) & 1)
            // r < L < 2^253, so 2r + 1 fits in four limbs.
            r = (r.0 << 1 | bit, r.1 << 1 | r.0 >> 63, r.2 << 1 | r.1 >> 63, r.3 << 1 | r.2 >> 63)
            let (d0, b0) = r.0.subtractingReportingOverflow(order.0)
            let (d1a, b1a) = r.1.subtractingReportingOverflow(order.1)
            let (d1, b1b) = d1a.subtractingReportingOverflow(b0 ? 1 : 0)
            let (d2a, b2a) = r.2.subtractingReportingOverflow(order.2)
            let (d2, b2b) = d2a.subtractingReportingOverflow((b1a || b1b) ? 1 : 0)
            let (d3a, b3a) = r.3.subtractingReportingOverflow(order.3)
            let (d3, b3b) = d3a.subtractingReportingOverflow((b2a || b2b) ? 1 : 0)
            let borrow = UInt64((b3a || b3b) ? 1 : 0)
            // Keep the difference when nothing was borrowed (r was L or more).
            let keep = borrow &- 1
            r = ((d0 & keep) | (r.0 & ~keep), (d1 & keep) | (r.1 & ~keep), (d2 & keep) | (r.2 & ~keep),
                 (d3 & keep) | (r.3 & ~keep))
        }
        var result: [UInt8] = []
        result.reserveCapacity(32)
        for limb in [r.0, r.1, r.2, r.3] {
            for shift in stride(from: 0, to: 64, by: 8) { result.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift))) }
        }
        return result
    }

    /// (a b + c) mod L for 32-byte scalars.
    static func multiplyAdd(_ a: [UInt8], _ b: [UInt8], _ c: [UInt8]) -> [UInt8] {
        var aLimbs = limbs(a)
        var bLimbs = limbs(b)
        var product = [UInt64](repeating: 0, count: 9)
        for i in 0..<4 {
            var carry: UInt64 = 0
            for j in 0..<4 {
                let (high, low) = aLimbs[i].multipliedFullWidth(by: bLimbs[j])
                let (sum1, o1) = product[i + j].addingReportingOverflow(low)
                let (sum2, o2) = sum1.addingReportingOverflow(carry)
                product[i + j] = sum2
                carry = high &+ (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
            }
            product[i + 4] = carry
        }
        var carry: UInt64 = 0
        var cLimbs = limbs(c)
        for index in 0..<9 {
            let (sum1, o1) = product[index].addingReportingOverflow(index < 4 ? cLimbs[index] : 0)
            let (sum2, o2) = sum1.addingReportingOverflow(carry)
            product[index] = sum2
            carry = (o1 ? 1 : 0) &+ (o2 ? 1 : 0)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(72)
        for limb in product {
            for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: limb >> UInt64(shift))) }
        }
        let result = reduced(bytes)
        aLimbs.wipe()
        bLimbs.wipe()
        cLimbs.wipe()
        product.wipe()
        bytes.wipe()
        return result
    }

    /// Whether a 32-byte scalar is below L: RFC 8032 (5.1.7) rejects a signature whose S is not, which is what
    /// makes signatures non-malleable.
    static func isCanonical(_ scalar: [UInt8]) -> Bool {
        let value = limbs(scalar)
        let order = [order.0, order.1, order.2, order.3]
        for index in (0..<4).reversed() where value[index] != order[index] {
            return value[index] < order[index]
        }
        return false
    }

    private static func limbs(_ bytes: [UInt8]) -> [UInt64] {
        precondition(bytes.count == 32, "a scalar is 32 bytes")
        var limbs: [UInt64] = [0, 0, 0, 0]
        for (index, byte) in bytes.enumerated() { limbs[index / 8] |= UInt64(byte) << (8 * UInt64(index % 8)) }
        return limbs
    }
}
