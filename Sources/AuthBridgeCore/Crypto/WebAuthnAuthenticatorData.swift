/// WebAuthn authenticator data (W3C Web Authentication Level 2 §6.1): the bytes an authenticator
/// signs, written by the emulated passkey and read by the server's WebAuthn nodes.
///
///     rpIdHash (32) ‖ flags (1) ‖ signCount (4, big-endian)
///     [ aaguid (16) ‖ credentialIdLength (2) ‖ credentialId ‖ COSE key ]   when AT is set
///     [ extensions: a CBOR map ]                                           when ED is set
public struct WebAuthnAuthenticatorData: Equatable, Sendable {
    public struct Flags: OptionSet, Equatable, Sendable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let userPresent = Flags(rawValue: 0x01)
        public static let userVerified = Flags(rawValue: 0x04)
        public static let backupEligible = Flags(rawValue: 0x08)
        public static let backedUp = Flags(rawValue: 0x10)
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// §6.5.1: what a registration adds.
    public struct AttestedCredential: Equatable, Sendable {
        public var aaguid: [UInt8]
        public var credentialId: [UInt8]
        public var publicKey: COSEKey

        public init(aaguid: [UInt8], credentialId: [UInt8], publicKey: COSEKey) {
            self.aaguid = aaguid
            self.credentialId = credentialId
            self.publicKey = publicKey
        }
    }

    public enum Error: Swift.Error, Equatable, Sendable {
        /// Fewer bytes than the fixed fields (and the attested data the flags announce) need.
        case truncated(Int)
        /// §6.5.1: at most 1023 bytes.
        case credentialIdTooLong(Int)
        case publicKey(COSEKey.Error)
        case cbor(CBORDecoder.Error)
        /// Extensions that are not a CBOR map.
        case extensionsNotAMap
        /// Bytes left after what the flags announce.
        case trailingBytes(Int)
    }

    public var rpIdHash: [UInt8]
    public var flags: Flags
    public var signCount: UInt32
    public var attestedCredential: AttestedCredential?
    public var extensions: CBOR?

    public init(
        rpIdHash: [UInt8], flags: Flags, signCount: UInt32, attestedCredential: AttestedCredential? = nil,
        extensions: CBOR? = nil
    ) {
        self.rpIdHash = rpIdHash
        self.flags = flags
        self.signCount = signCount
        self.attestedCredential = attestedCredential
        self.extensions = extensions
    }

    /// The limits for the CBOR an authenticator appends: a COSE key and a few extensions.
    private static let limits = CBORDecoder.Limits(maxDepth: 4, maxItems: 64)

    public init(bytes: [UInt8]) throws(Error) {
        guard bytes.count >= 37 else { throw .truncated(bytes.count) }
        rpIdHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags.contains(.attestedCredentialData) {
            guard bytes.count >= position + 18 else { throw .truncated(bytes.count) }
            let aaguid = Array(bytes[position..<position + 16])
            let length = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard length <= 1023 else { throw .credentialIdTooLong(length) }
            guard bytes.count >= position + length else { throw .truncated(bytes.count) }
            let credentialId = Array(bytes[position..<position + length])
            position += length
            var decoder = CBORDecoder(bytes[position...], limits: Self.limits)
            let item: CBOR
            do { item = try decoder.decodeItem() } catch { throw .cbor(error) }
            let key: COSEKey
            do { key = try COSEKey(cbor: item) } catch { throw .publicKey(error) }
            position = decoder.position
            attestedCredential = AttestedCredential(aaguid: aaguid, credentialId: credentialId, publicKey: key)
        }
        if flags.contains(.extensionData) {
            var decoder = CBORDecoder(bytes[position...], limits: Self.limits)
            let item: CBOR
            do { item = try decoder.decodeItem() } catch { throw .cbor(error) }
            guard item.mapValue != nil else { throw .extensionsNotAMap }
            extensions = item
            position = decoder.position
        }
        guard position == bytes.count else { throw .trailingBytes(bytes.count - position) }
    }

    /// The encoding; the AT and ED flags follow what is present.
    public var bytes: [UInt8] {
        var flags = flags
        flags.remove([.attestedCredentialData, .extensionData])
        if attestedCredential != nil { flags.insert(.attestedCredentialData) }
        if extensions != nil { flags.insert(.extensionData) }
        var out = rpIdHash + [flags.rawValue]
        out += (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (8 * UInt32($0))) }
        if let credential = attestedCredential {
            out += credential.aaguid
            out += [
                UInt8(truncatingIfNeeded: credential.credentialId.count >> 8),
                UInt8(truncatingIfNeeded: credential.credentialId.count),
            ]
            out += credential.credentialId
            out += credential.publicKey.cbor.encoded
        }
        if let extensions { out += extensions.encoded }
        return out
    }
}
