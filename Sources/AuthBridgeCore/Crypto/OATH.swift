/// HOTP (RFC 4226) and TOTP (RFC 6238), the codes an authenticator app shows. One algorithm for
/// both parties: the embedded AM verifies with it and the emulated phone generates with it, each
/// from its own copy of the secret. Verified against RFC 4226 Appendix D and RFC 6238 Appendix B.
public enum OATH {
    /// The HMAC under the code, by its `otpauth://` name (Google's Key Uri Format `algorithm`).
    public enum Algorithm: String, Sendable, CaseIterable {
        case sha1 = "SHA1"
        case sha256 = "SHA256"
        case sha512 = "SHA512"

        public func mac(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
            switch self {
            case .sha1: HMACSHA1.authenticate(message, key: key)
            case .sha256: HMACSHA256.authenticate(message, key: key)
            case .sha512: HMACSHA512.authenticate(message, key: key)
            }
        }
    }

    /// A code's length: 6 or 8, the two that AM's OATH nodes and the Key Uri Format allow.
    public enum Digits: Int, Sendable, CaseIterable {
        case six = 6
        case eight = 8

        var modulus: UInt32 { self == .six ? 1_000_000 : 100_000_000 }
    }

    /// The code for `counter`. `truncationOffset` nil is RFC 4226's dynamic truncation (AM's
    /// default, -1); an offset the digest cannot hold four bytes at falls back to it, as RFC 4226's
    /// reference code does.
    public static func hotp(
        secret: [UInt8], counter: UInt64, digits: Digits, algorithm: Algorithm = .sha1, truncationOffset: Int? = nil
    ) -> String {
        let message = (0..<8).reversed().map { UInt8(truncatingIfNeeded: counter >> UInt64($0 * 8)) }
        let mac = algorithm.mac(message, key: secret)
        var offset = Int((mac.last ?? 0) & 0x0f)
        if let fixed = truncationOffset, fixed >= 0, fixed < mac.count - 4 { offset = fixed }
        let binary =
            UInt32(mac[offset] & 0x7f) << 24 | UInt32(mac[offset + 1]) << 16 | UInt32(mac[offset + 2]) << 8
            | UInt32(mac[offset + 3])
        let code = String(binary % digits.modulus)
        return String(repeating: "0", count: digits.rawValue - code.count) + code
    }

    /// RFC 6238's T: whole periods since the epoch (T0 = 0), rounded down, also before 1970.
    /// A period below one second counts as one; the URI parser and the nodes refuse those first.
    public static func timeStep(unixSeconds: Int64, period: Int) -> Int64 {
        let period = Int64(max(period, 1))
        let quotient = unixSeconds / period
        return unixSeconds % period < 0 ? quotient - 1 : quotient
    }

    public static func totp(
        secret: [UInt8], unixSeconds: Int64, period: Int, digits: Digits, algorithm: Algorithm = .sha1
    ) -> String {
        let step = timeStep(unixSeconds: unixSeconds, period: period)
        return hotp(secret: secret, counter: UInt64(bitPattern: step), digits: digits, algorithm: algorithm)
    }
}
