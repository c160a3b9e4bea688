import FoundationEssentials
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The hashes `digest()` offers (XForms 1.1: MD5, SHA-1, SHA-256, SHA-384, SHA-512), written
/// out because Foundation on Linux has none and the project takes no outside packages. Only
/// forms call them, on answers of a few bytes: clarity over speed.
enum MessageDigest {
    static let algorithms = ["MD5", "SHA-1", "SHA-256", "SHA-384", "SHA-512"]

    static func hash(_ data: [UInt8], algorithm: String) -> [UInt8]? {
        switch algorithm.uppercased() {
        case "MD5": return md5(data)
        case "SHA-1", "SHA1": return sha1(data)
        case "SHA-256", "SHA256": return sha256(data)
        case "SHA-384", "SHA384": return Array(sha512(data, initial: sha384Initial).prefix(48))
        case "SHA-512", "SHA512": return sha512(data, initial: sha512Initial)
        default: return nil
        }
    }

    /// The message padded to whole blocks with its bit length, big- or little-endian.
    private static func padded(_ data: [UInt8], block: Int, lengthBytes: Int, bigEndian: Bool) -> [UInt8] {
        var m = data
        m.append(0x80)
        while m.count % block != block - lengthBytes { m.append(0) }
        let bits = UInt64(data.count) &* 8
        var length = (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }   // little-endian
        if bigEndian { length.reverse() }
        m += Array(repeating: 0, count: lengthBytes - 8) + (bigEndian ? length : [])
        if !bigEndian { m += length }
        return m
    }

    private static func rotl32(_ x: UInt32, _ n: UInt32) -> UInt32 { (x << n) | (x >> (32 - n)) }
    private static func rotr32(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
    private static func rotr64(_ x: UInt64, _ n: UInt64) -> UInt64 { (x >> n) | (x << (64 - n)) }

    private static func bigEndianWords32(_ b: ArraySlice<UInt8>) -> [UInt32] {
        stride(from: b.startIndex, to: b.endIndex, by: 4).map { (i: Int) -> UInt32 in
            let high: UInt32 = UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16
            let low: UInt32 = UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
            return high | low
        }
    }

    private static func bytes32(_ words: [UInt32], bigEndian: Bool) -> [UInt8] {
        words.flatMap { w in (0..<4).map { UInt8(truncatingIfNeeded: bigEndian ? w >> (24 - 8 * UInt32($0)) : w >> (8 * UInt32($0))) } }
    }

    static func md5(_ data: [UInt8]) -> [UInt8] {
        let s: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
        let k = (0..<64).map { UInt32(truncatingIfNeeded: Int64(Swift.abs(sin(Double($0 + 1))) * 4_294_967_296)) }
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476]
        let m = padded(data, block: 64, lengthBytes: 8, bigEndian: false)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            let w = (0..<16).map { i in (0..<4).reduce(UInt32(0)) { $0 | UInt32(m[chunk + 4 * i + $1]) << (8 * UInt32($1)) } }
            var (a, b, c, d) = (h[0], h[1], h[2], h[3])
            for i in 0..<64 {
                var f: UInt32, g: Int
                switch i {
                case 0..<16: f = (b & c) | (~b & d); g = i
                case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
                case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
                default: f = c ^ (b | ~d); g = (7 * i) % 16
                }
                f = f &+ a &+ k[i] &+ w[g]
                a = d; d = c; c = b
                b = b &+ rotl32(f, s[i])
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d
        }
        return bytes32(h, bigEndian: false)
    }

    static func sha1(_ data: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x67452301, 0xEFCDAB89, 0x98BADCFE, 0x10325476, 0xC3D2E1F0]
        let m = padded(data, block: 64, lengthBytes: 8, bigEndian: true)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            var w = bigEndianWords32(m[chunk..<chunk + 64])
            for i in 16..<80 { w.append(rotl32(w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16], 1)) }
            var (a, b, c, d, e) = (h[0], h[1], h[2], h[3], h[4])
            for i in 0..<80 {
                let (f, k): (UInt32, UInt32)
                switch i {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A827999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1BBCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62C1D6)
                }
                let t = rotl32(a, 5) &+ f &+ e &+ k &+ w[i]
                e = d; d = c; c = rotl32(b, 30); b = a; a = t
            }
            h[0] &+= a; h[1] &+= b; h[2] &+= c; h[3] &+= d; h[4] &+= e
        }
        return bytes32(h, bigEndian: true)
    }

    /// The first 32 bits of the fractional parts of the cube roots of the first 64 primes.
    private static let sha256K: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func sha256(_ data: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        let m = padded(data, block: 64, lengthBytes: 8, bigEndian: true)
        for chunk in stride(from: 0, to: m.count, by: 64) {
            var w = bigEndianWords32(m[chunk..<chunk + 64])
            for i in 16..<64 {
                let s0 = rotr32(w[i - 15], 7) ^ rotr32(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr32(w[i - 2], 17) ^ rotr32(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w.append(w[i - 16] &+ s0 &+ w[i - 7] &+ s1)
            }
            var v = h
            for i in 0..<64 {
                let s1 = rotr32(v[4], 6) ^ rotr32(v[4], 11) ^ rotr32(v[4], 25)
                let t1 = v[7] &+ s1 &+ ((v[4] & v[5]) ^ (~v[4] & v[6])) &+ sha256K[i] &+ w[i]
                let s0 = rotr32(v[0], 2) ^ rotr32(v[0], 13) ^ rotr32(v[0], 22)
                let t2 = s0 &+ ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]))
                v = [t1 &+ t2, v[0], v[1], v[2], v[3] &+ t1, v[4], v[5], v[6]]
            }
            for i in 0..<8 { h[i] &+= v[i] }
        }
        return bytes32(h, bigEndian: true)
    }

    private static let sha512Initial: [UInt64] = [
        0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
        0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179,
    ]
    private static let sha384Initial: [UInt64] = [
        0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
        0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4,
    ]
    private static let sha512K: [UInt64] = [
        0x428a2f98d728ae22, 0x7137449123ef65cd, 0xb5c0fbcfec4d3b2f, 0xe9b5dba58189dbbc, 0x3956c25bf348b538,
        0x59f111f1b605d019, 0x923f82a4af194f9b, 0xab1c5ed5da6d8118, 0xd807aa98a3030242, 0x12835b0145706fbe,
        0x243185be4ee4b28c, 0x550c7dc3d5ffb4e2, 0x72be5d74f27b896f, 0x80deb1fe3b1696b1, 0x9bdc06a725c71235,
        0xc19bf174cf692694, 0xe49b69c19ef14ad2, 0xefbe4786384f25e3, 0x0fc19dc68b8cd5b5, 0x240ca1cc77ac9c65,
        0x2de92c6f592b0275, 0x4a7484aa6ea6e483, 0x5cb0a9dcbd41fbd4, 0x76f988da831153b5, 0x983e5152ee66dfab,
        0xa831c66d2db43210, 0xb00327c898fb213f, 0xbf597fc7beef0ee4, 0xc6e00bf33da88fc2, 0xd5a79147930aa725,
        0x06ca6351e003826f, 0x142929670a0e6e70, 0x27b70a8546d22ffc, 0x2e1b21385c26c926, 0x4d2c6dfc5ac42aed,
        0x53380d139d95b3df, 0x650a73548baf63de, 0x766a0abb3c77b2a8, 0x81c2c92e47edaee6, 0x92722c851482353b,
        0xa2bfe8a14cf10364, 0xa81a664bbc423001, 0xc24b8b70d0f89791, 0xc76c51a30654be30, 0xd192e819d6ef5218,
        0xd69906245565a910, 0xf40e35855771202a, 0x106aa07032bbd1b8, 0x19a4c116b8d2d0c8, 0x1e376c085141ab53,
        0x2748774cdf8eeb99, 0x34b0bcb5e19b48a8, 0x391c0cb3c5c95a63, 0x4ed8aa4ae3418acb, 0x5b9cca4f7763e373,
        0x682e6ff3d6b2b8a3, 0x748f82ee5defb2fc, 0x78a5636f43172f60, 0x84c87814a1f0ab72, 0x8cc702081a6439ec,
        0x90befffa23631e28, 0xa4506cebde82bde9, 0xbef9a3f7b2c67915, 0xc67178f2e372532b, 0xca273eceea26619c,
        0xd186b8c721c0c207, 0xeada7dd6cde0eb1e, 0xf57d4f7fee6ed178, 0x06f067aa72176fba, 0x0a637dc5a2c898a6,
        0x113f9804bef90dae, 0x1b710b35131c471b, 0x28db77f523047d84, 0x32caab7b40c72493, 0x3c9ebe0a15c9bebc,
        0x431d67c49c100d4c, 0x4cc5d4becb3e42b6, 0x597f299cfc657e2a, 0x5fcb6fab3ad6faec, 0x6c44198c4a475817,
    ]

    static func sha512(_ data: [UInt8], initial: [UInt64]) -> [UInt8] {
        var h = initial
        let m = padded(data, block: 128, lengthBytes: 16, bigEndian: true)
        for chunk in stride(from: 0, to: m.count, by: 128) {
            var w = (0..<16).map { i in (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(m[chunk + 8 * i + $1]) } }
            for i in 16..<80 {
                let s0 = rotr64(w[i - 15], 1) ^ rotr64(w[i - 15], 8) ^ (w[i - 15] >> 7)
                let s1 = rotr64(w[i - 2], 19) ^ rotr64(w[i - 2], 61) ^ (w[i - 2] >> 6)
                w.append(w[i - 16] &+ s0 &+ w[i - 7] &+ s1)
            }
            var v = h
            for i in 0..<80 {
                let s1 = rotr64(v[4], 14) ^ rotr64(v[4], 18) ^ rotr64(v[4], 41)
                let t1 = v[7] &+ s1 &+ ((v[4] & v[5]) ^ (~v[4] & v[6])) &+ sha512K[i] &+ w[i]
                let s0 = rotr64(v[0], 28) ^ rotr64(v[0], 34) ^ rotr64(v[0], 39)
                let t2 = s0 &+ ((v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]))
                v = [t1 &+ t2, v[0], v[1], v[2], v[3] &+ t1, v[4], v[5], v[6]]
            }
            for i in 0..<8 { h[i] &+= v[i] }
        }
        return h.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (56 - 8 * UInt64($0))) } }
    }
}
