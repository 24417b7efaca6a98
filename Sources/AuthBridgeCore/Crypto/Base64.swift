/// base64 with the standard alphabet and padding (RFC 4648 §4), as AM and the ForgeRock
/// Authenticator write push secrets, challenges and their HMAC answers (java.util.Base64,
/// android.util.Base64 `NO_WRAP`). Built on `Base64URL`: the two alphabets differ in two
/// characters and the padding.
public enum Base64 {
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var text = Array(Base64URL.encode(bytes).utf8)
        for index in text.indices {
            if text[index] == UInt8(ascii: "-") { text[index] = UInt8(ascii: "+") }
            if text[index] == UInt8(ascii: "_") { text[index] = UInt8(ascii: "/") }
        }
        while text.count % 4 != 0 { text.append(UInt8(ascii: "=")) }
        return String(decoding: text, as: UTF8.self)
    }

    /// nil unless the text is canonical standard base64: its length a multiple of four, at most
    /// two `=` and only at the end, no URL-alphabet characters, no whitespace.
    public static func decode(_ text: String) -> [UInt8]? {
        var bytes = Array(text.utf8)
        guard bytes.count % 4 == 0 else { return nil }
        var padding = 0
        while padding < 2, bytes.last == UInt8(ascii: "=") {
            bytes.removeLast()
            padding += 1
        }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "+"): bytes[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): bytes[index] = UInt8(ascii: "_")
            case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="): return nil
            default: break
            }
        }
        return Base64URL.decode(bytes: bytes[...])
    }
}
