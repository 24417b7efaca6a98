/// Base32 (RFC 4648 §6), the encoding of OATH shared secrets in `otpauth://` URIs.
///
/// Decoding is strict about what cannot be a base32 encoding — a character outside the alphabet,
/// padding anywhere but at the end or of the wrong length, a final group that holds no whole byte,
/// unused trailing bits that are not zero (RFC 4648 §3.5) — and lenient in the two ways
/// authenticator apps are: lowercase letters are read as uppercase, and the `=` padding may be
/// left out (Google's Key Uri Format allows that; AM's own URIs pad).
public enum Base32 {
    public enum DecodingError: Error, Equatable, Sendable {
        /// The byte at `offset` (in the text's UTF-8) is neither in the alphabet nor trailing padding.
        case invalidCharacter(offset: Int)
        /// A symbol follows padding, or the padding does not make the length a multiple of 8.
        case invalidPadding(offset: Int)
        /// The final group has `symbols` symbols (1, 3 or 6), which encode no whole number of bytes.
        case invalidLength(symbols: Int)
        /// The bits after the last whole byte are not zero: not the canonical encoding of any bytes.
        case nonZeroTrailingBits
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
    private static let reverse: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() {
            table[Int(byte)] = UInt8(index)
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { table[Int(byte | 0x20)] = UInt8(index) }
        }
        return table
    }()

    /// Uppercase, with `=` padding to a multiple of 8 unless `padding` is false.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes, padding: Bool = true) -> String
    where Bytes.Element == UInt8 {
        var out: [UInt8] = []
        var accumulator: UInt64 = 0
        var bits = 0
        for byte in bytes {
            accumulator = (accumulator << 8 | UInt64(byte)) & 0xFFFF
            bits += 8
            while bits >= 5 {
                bits -= 5
                out.append(alphabet[Int(accumulator >> UInt64(bits) & 31)])
            }
        }
        if bits > 0 { out.append(alphabet[Int(accumulator << UInt64(5 - bits) & 31)]) }
        if padding { while out.count % 8 != 0 { out.append(UInt8(ascii: "=")) } }
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) throws(DecodingError) -> [UInt8] {
        let input = Array(text.utf8)
        var symbols = input.count
        while symbols > 0 && input[symbols - 1] == UInt8(ascii: "=") { symbols -= 1 }
        if symbols < input.count && input.count % 8 != 0 { throw .invalidPadding(offset: symbols) }
        var out: [UInt8] = []
        out.reserveCapacity(symbols * 5 / 8)
        var accumulator: UInt64 = 0
        var bits = 0
        for offset in 0..<symbols {
            let value = reverse[Int(input[offset])]
            guard value != 0xFF else {
                throw input[offset] == UInt8(ascii: "=")
                    ? .invalidPadding(offset: offset) : .invalidCharacter(offset: offset)
            }
            accumulator = (accumulator << 5 | UInt64(value)) & 0xFFFF
            bits += 5
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt64(bits)))
            }
        }
        let finalGroup = symbols % 8
        guard [0, 2, 4, 5, 7].contains(finalGroup) else { throw .invalidLength(symbols: finalGroup) }
        // With padding the group must be padded to exactly 8: "MY==" is not "MY======".
        if symbols < input.count && (input.count - symbols) != (8 - finalGroup) % 8 {
            throw .invalidPadding(offset: symbols)
        }
        guard accumulator & ((1 << UInt64(bits)) - 1) == 0 else { throw .nonZeroTrailingBits }
        return out
    }
}
