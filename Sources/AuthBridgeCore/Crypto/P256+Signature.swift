/// An ECDSA P-256 signature (r, s) in its two encodings: raw r ‖ s, 64 bytes (JWS ES256, RFC 7518
/// §3.4), and DER `SEQUENCE { r INTEGER, s INTEGER }` (SEC 1 §C.8, X.690; WebAuthn assertions and
/// attestation statements).
extension P256 {
    public enum SignatureError: Error, Equatable, Sendable {
        /// Raw signatures are exactly 64 bytes.
        case wrongLength(Int)
        /// Not a strict DER SEQUENCE of two non-negative minimal INTEGERs.
        case malformedDER(DER.Error)
        /// An INTEGER over 32 bytes (it cannot be below n).
        case integerTooLarge
    }

    /// r and s as 32-byte big-endian values. Parsing checks sizes and encodings only: whether r and
    /// s lie in [1, n − 1] is part of verification, which answers false for them.
    public struct Signature: Equatable, Sendable {
        public let r: [UInt8]
        public let s: [UInt8]

        init(r: [UInt8], s: [UInt8]) {
            self.r = r
            self.s = s
        }

        /// From r ‖ s (64 bytes).
        public init(rawRepresentation bytes: [UInt8]) throws(SignatureError) {
            guard bytes.count == 64 else { throw .wrongLength(bytes.count) }
            self.init(r: Array(bytes[..<32]), s: Array(bytes[32...]))
        }

        /// From DER; trailing bytes, indefinite or long-form-when-short lengths, negative or
        /// zero-padded integers are refused.
        public init(derRepresentation bytes: [UInt8]) throws(SignatureError) {
            var reader = DER.Reader(bytes)
            let parts: (ArraySlice<UInt8>, ArraySlice<UInt8>)
            do {
                parts = try reader.nested { (inner: inout DER.Reader) throws(DER.Error) in
                    (try inner.unsignedInteger(), try inner.unsignedInteger())
                }
                try reader.finish()
            } catch {
                throw .malformedDER(error)
            }
            guard parts.0.count <= 32, parts.1.count <= 32 else { throw .integerTooLarge }
            self.init(r: Self.padded(parts.0), s: Self.padded(parts.1))
        }

        private static func padded(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            [UInt8](repeating: 0, count: 32 - bytes.count) + bytes
        }

        public var rawRepresentation: [UInt8] { r + s }

        public var derRepresentation: [UInt8] {
            DER.encode(tag: DER.Tag.sequence, DER.encodeUnsignedInteger(r) + DER.encodeUnsignedInteger(s))
        }
    }
}
