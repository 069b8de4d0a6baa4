/// A point of Ed25519's twisted Edwards curve -x^2 + y^2 = 1 + d x^2 y^2 in extended coordinates (X:Y:Z:T),
/// x = X/Z, y = Y/Z, x y = T/Z (RFC 8032, 5.1.4).
struct EdwardsPoint: Sendable {
    var x: Field25519
    var y: Field25519
    var z: Field25519
    var t: Field25519

    static let identity = EdwardsPoint(x: .zero, y: .one, z: .one, t: .zero)

    /// The base point B: y = 4/5, x even.
    static let base: EdwardsPoint = EdwardsPoint(encoded: [0x58] + [UInt8](repeating: 0x66, count: 31))!

    init(x: Field25519, y: Field25519, z: Field25519, t: Field25519) {
        self.x = x
        self.y = y
        self.z = z
        self.t = t
    }

    /// Decodes a 32-byte encoding (RFC 8032, 5.1.3): y little-endian with x's sign in the top bit. Nil when y is
    /// not below p (a non-canonical encoding), when no x exists, or when x = 0 with the sign bit set.
    init?(encoded bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        let sign = bytes[31] >> 7
        var yBytes = bytes
        yBytes[31] &= 0x7F
        let y = Field25519(bytes: yBytes)
        guard y.encoded == yBytes else { return nil }
        // x^2 = (y^2 - 1) / (d y^2 + 1) = u / v; a candidate root is u v^3 (u v^7)^((p-5)/8).
        let ySquared = y.squared
        let u = ySquared - .one
        let v = Field25519.d * ySquared + .one
        let v3 = v.squared * v
        var x = u * v3 * (u * v3.squared * v).raisedToPMinus5Over8()
        let check = v * x.squared
        if check.isEqual(to: u) {
            // x is a root.
        } else if check.isEqual(to: -u) {
            x = x * Field25519.squareRootOfMinusOne
        } else {
            return nil
        }
        if x.isZero && sign == 1 { return nil }
        if (x.isNegative ? 1 : 0) != sign { x = -x }
        self.init(x: x, y: y, z: .one, t: x * y)
    }

    /// The canonical 32-byte encoding.
    var encoded: [UInt8] {
        let inverse = z.inverted()
        var bytes = (y * inverse).encoded
        if (x * inverse).isNegative { bytes[31] |= 0x80 }
        return bytes
    }

    var negated: EdwardsPoint { EdwardsPoint(x: -x, y: y, z: z, t: -t) }

    /// Addition (RFC 8032, 5.1.4); complete, so it also doubles and adds the identity.
    static func + (p: EdwardsPoint, q: EdwardsPoint) -> EdwardsPoint {
        let a = (p.y - p.x) * (q.y - q.x)
        let b = (p.y + p.x) * (q.y + q.x)
        let c = p.t * Field25519.d2 * q.t
        let zz = p.z * q.z
        let d = zz + zz
        let e = b - a
        let f = d - c
        let g = d + c
        let h = b + a
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// Doubling (RFC 8032, 5.1.4).
    var doubled: EdwardsPoint {
        let a = x.squared
        let b = y.squared
        let zz = z.squared
        let c = zz + zz
        let h = a + b
        let e = h - (x + y).squared
        let g = a - b
        let f = c + g
        return EdwardsPoint(x: e * f, y: g * h, z: f * g, t: e * h)
    }

    /// `a` if `choice` is 1, `b` if it is 0, without a branch on `choice`.
    static func select(_ a: EdwardsPoint, _ b: EdwardsPoint, choice: UInt64) -> EdwardsPoint {
        EdwardsPoint(
            x: .select(a.x, b.x, choice: choice), y: .select(a.y, b.y, choice: choice),
            z: .select(a.z, b.z, choice: choice), t: .select(a.t, b.t, choice: choice)
        )
    }

    /// [scalar]B for a secret scalar (32 bytes little-endian): every bit costs one doubling, one addition and one
    /// branch-free selection, so the time and the memory accessed do not depend on the scalar.
    static func baseMultipleInConstantTime(_ scalar: [UInt8]) -> EdwardsPoint {
        var result = identity
        for index in (0..<256).reversed() {
            result = result.doubled
            let bit = UInt64((scalar[index / 8] >> UInt8(index % 8)) & 1)
            result = select(result + base, result, choice: bit)
        }
        return result
    }

    /// [a]P + [b]Q for public scalars (32 bytes little-endian each), doubling once for both (Straus); variable
    /// time, for verification only.
    static func linearCombination(_ a: [UInt8], _ p: EdwardsPoint, _ b: [UInt8], _ q: EdwardsPoint) -> EdwardsPoint {
        var result = identity
        for index in (0..<256).reversed() {
            result = result.doubled
            if (a[index / 8] >> UInt8(index % 8)) & 1 == 1 { result = result + p }
            if (b[index / 8] >> UInt8(index % 8)) & 1 == 1 { result = result + q }
        }
        return result
    }
}
