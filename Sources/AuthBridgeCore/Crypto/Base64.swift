/// Standard base64 with padding (RFC 4648 §4), as AM writes device profiles into shared state;
/// `Base64URL` is the same alphabet but two characters, unpadded.
public enum Base64 {
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text = Array(Base64URL.encode(bytes).utf8).map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        return String(decoding: text, as: UTF8.self)
    }

    /// nil for a character outside the standard alphabet, padding not at the end or not making the
    /// length a multiple of 4, or an impossible length.
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, bytes.last == UInt8(ascii: "=") {
            bytes.removeLast()
            padding += 1
        }
        var mapped: [UInt8] = []
        mapped.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "+"): mapped.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): mapped.append(UInt8(ascii: "_"))
            case UInt8(ascii: "-"), UInt8(ascii: "_"): return nil
            default: mapped.append(byte)
            }
        }
        return Base64URL.decode(bytes: mapped[...])
    }
}
