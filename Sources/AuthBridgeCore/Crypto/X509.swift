/// X.509 v1–v3 certificates (RFC 5280 §4.1) read from DER: what WebAuthn `packed` attestation
/// with x5c needs (WebAuthn Level 2 §8.2.1: version 3, subject fields, basic constraints, the
/// id-fido-gen-ce-aaguid extension; the leaf's public key; validity). Everything is returned as
/// data: which requirements apply, and what the time is, is the caller's decision.
public enum X509 {
    public enum Error: Swift.Error, Equatable, Sendable {
        case der(DER.Error)
        /// A Time that is neither UTCTime nor GeneralizedTime in RFC 5280 §4.1.2.5's form.
        case invalidTime
        /// A name attribute whose value is not a string type.
        case invalidName
        /// The outer signatureAlgorithm differs from the TBSCertificate's (RFC 5280 §4.1.1.2).
        case signatureAlgorithmMismatch
        /// An extension appears twice (RFC 5280 §4.2).
        case duplicateExtension(DER.ObjectIdentifier)
        /// A known extension whose value does not parse.
        case invalidExtension(DER.ObjectIdentifier)
        case unsupportedKeyAlgorithm(DER.ObjectIdentifier)
        case unsupportedCurve(DER.ObjectIdentifier)
        case invalidKeyParameters
        case invalidP256Key(P256.KeyError)
        case invalidRSAKey(RSA.KeyError)
    }

    /// Runs a DER reading step, wrapping its error.
    static func reading<T>(_ body: () throws(DER.Error) -> T) throws(Error) -> T {
        do { return try body() } catch { throw .der(error) }
    }

    /// A distinguished name: its attributes in order, multi-valued RDNs flattened.
    public struct Name: Equatable, Sendable {
        public struct Attribute: Equatable, Sendable {
            public let type: DER.ObjectIdentifier
            public let value: String
        }

        public let attributes: [Attribute]

        public func values(_ type: DER.ObjectIdentifier) -> [String] {
            attributes.filter { $0.type == type }.map(\.value)
        }

        public var commonName: [String] { values(OID.commonName) }
        public var organization: [String] { values(OID.organization) }
        public var organizationalUnit: [String] { values(OID.organizationalUnit) }
        public var country: [String] { values(OID.country) }
    }

    public struct Extension: Sendable {
        public let id: DER.ObjectIdentifier
        public let critical: Bool
        /// The extnValue OCTET STRING's contents.
        public let value: [UInt8]
    }

    public struct BasicConstraints: Equatable, Sendable {
        public let isCertificateAuthority: Bool
        public let pathLength: Int?
    }

    public struct Certificate: Sendable {
        /// 1, 2 or 3 (the DER value plus one).
        public let version: Int
        /// The serial number's content octets as encoded (two's complement).
        public let serialNumber: [UInt8]
        public let signatureAlgorithm: DER.ObjectIdentifier
        public let issuer: Name
        public let subject: Name
        /// Seconds since 1970 (UTC), inclusive bounds.
        public let notBefore: Int64
        public let notAfter: Int64
        public let publicKeyAlgorithm: DER.ObjectIdentifier
        /// The subject's key, or why it could not be read (an algorithm or curve not supported
        /// here is not a malformed certificate: a chain may hold other kinds).
        public let publicKey: Result<PublicKey, Error>
        public let extensions: [Extension]
        /// The signed bytes: the whole TBSCertificate encoding.
        public let tbsCertificate: [UInt8]
        public let signature: [UInt8]

        /// Basic constraints, nil when the extension is absent.
        public let basicConstraints: BasicConstraints?
        /// The id-fido-gen-ce-aaguid value (16 bytes), nil when absent; whether it is marked
        /// critical is in `extensions`.
        public let aaguid: [UInt8]?

        public init(der: [UInt8]) throws(Error) {
            var reader = DER.Reader(der)
            let (tbs, outerAlgorithm, signature) = try X509.reading { () throws(DER.Error) in
                let parts = try reader.nested { (certificate: inout DER.Reader) throws(DER.Error) in
                    (
                        try certificate.read(tag: DER.Tag.sequence), try Self.algorithm(&certificate),
                        try certificate.bitString()
                    )
                }
                try reader.finish()
                return parts
            }
            self.signature = Array(signature)
            tbsCertificate = Array(tbs.encoded)
            var body = DER.Reader(tbs.encoded)
            var fields = try X509.reading { () throws(DER.Error) in try body.contents() }
            version = try X509.reading { () throws(DER.Error) in
                if fields.peekTag() == DER.Tag.explicit(0) {
                    return try fields.nested(tag: DER.Tag.explicit(0)) { (v: inout DER.Reader) throws(DER.Error) in
                        try v.smallInteger()
                    } + 1
                }
                return 1
            }
            guard (1...3).contains(version) else { throw .der(.invalidInteger(offset: tbs.offset)) }
            serialNumber = Array(
                try X509.reading { () throws(DER.Error) in try fields.read(tag: DER.Tag.integer) }.content)
            signatureAlgorithm = try X509.reading { () throws(DER.Error) in try Self.algorithm(&fields) }
            guard signatureAlgorithm == outerAlgorithm else { throw .signatureAlgorithmMismatch }
            issuer = try Self.name(&fields)
            (notBefore, notAfter) = try Self.validity(&fields)
            subject = try Self.name(&fields)
            let spki = try X509.reading { () throws(DER.Error) in try fields.read(tag: DER.Tag.sequence) }
            publicKeyAlgorithm = try X509.reading { () throws(DER.Error) in
                var spkiFields = DER.Reader(spki.content)
                return try Self.algorithm(&spkiFields)
            }
            var spkiReader = DER.Reader(spki.encoded)
            do { publicKey = .success(try PublicKey.read(&spkiReader)) } catch { publicKey = .failure(error) }
            extensions = try Self.extensions(&fields, version: version)
            basicConstraints = try Self.basicConstraints(in: extensions)
            aaguid = try Self.aaguid(in: extensions)
            try X509.reading { () throws(DER.Error) in try fields.finish() }
            try X509.reading { () throws(DER.Error) in try body.finish() }
        }

        /// Whether `issuer`'s key signed this certificate (ecdsa-with-SHA256 or
        /// sha256WithRSAEncryption; other algorithms answer false).
        public func isSigned(by issuer: PublicKey) -> Bool {
            issuer.isValidSignature(signature, for: tbsCertificate, algorithm: signatureAlgorithm)
        }

        /// Whether `unixSeconds` lies within notBefore…notAfter.
        public func isValid(at unixSeconds: Int64) -> Bool { notBefore <= unixSeconds && unixSeconds <= notAfter }

        /// AlgorithmIdentifier: the OID, parameters (NULL or absent for the algorithms used here) skipped.
        private static func algorithm(_ reader: inout DER.Reader) throws(DER.Error) -> DER.ObjectIdentifier {
            try reader.nested { (identifier: inout DER.Reader) throws(DER.Error) in
                let oid = try identifier.objectIdentifier()
                if !identifier.isAtEnd { _ = try identifier.read() }
                return oid
            }
        }

        private static func name(_ reader: inout DER.Reader) throws(Error) -> Name {
            var attributes: [Name.Attribute] = []
            let raw = try X509.reading { () throws(DER.Error) in
                try reader.nested { (sequence: inout DER.Reader) throws(DER.Error) in
                    var pairs: [(DER.ObjectIdentifier, DER.Element)] = []
                    while !sequence.isAtEnd {
                        try sequence.nested(tag: DER.Tag.set) { (set: inout DER.Reader) throws(DER.Error) in
                            while !set.isAtEnd {
                                pairs.append(
                                    try set.nested { (pair: inout DER.Reader) throws(DER.Error) in
                                        (try pair.objectIdentifier(), try pair.read())
                                    })
                            }
                        }
                    }
                    return pairs
                }
            }
            for (type, element) in raw {
                guard let value = string(element) else { throw .invalidName }
                attributes.append(Name.Attribute(type: type, value: value))
            }
            return Name(attributes: attributes)
        }

        /// DirectoryString and the other string types names use.
        private static func string(_ element: DER.Element) -> String? {
            switch element.tag {
            case DER.Tag.utf8String, DER.Tag.printableString, DER.Tag.ia5String, 0x14, 0x1A:
                return String(decoding: element.content, as: UTF8.self)
            case 0x1E:  // BMPString: UTF-16BE.
                guard element.content.count % 2 == 0 else { return nil }
                let units = stride(from: element.content.startIndex, to: element.content.endIndex, by: 2).map {
                    UInt16(element.content[$0]) << 8 | UInt16(element.content[$0 + 1])
                }
                return String(decoding: units, as: UTF16.self)
            default:
                return nil
            }
        }

        private static func validity(_ reader: inout DER.Reader) throws(Error) -> (Int64, Int64) {
            let (from, to) = try X509.reading { () throws(DER.Error) in
                try reader.nested { (validity: inout DER.Reader) throws(DER.Error) in
                    (try validity.read(), try validity.read())
                }
            }
            return (try time(from), try time(to))
        }

        /// UTCTime YYMMDDHHMMSSZ (years 1950–2049) or GeneralizedTime YYYYMMDDHHMMSSZ (RFC 5280 §4.1.2.5).
        static func time(_ element: DER.Element) throws(Error) -> Int64 {
            let text = Array(element.content)
            let yearDigits: Int
            switch (element.tag, text.count) {
            case (DER.Tag.utcTime, 13): yearDigits = 2
            case (DER.Tag.generalizedTime, 15): yearDigits = 4
            default: throw .invalidTime
            }
            guard text.last == UInt8(ascii: "Z"), text.dropLast().allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .invalidTime
            }
            func number(_ start: Int, _ count: Int) -> Int64 {
                text[start..<start + count].reduce(0) { $0 * 10 + Int64($1 - 0x30) }
            }
            var year = number(0, yearDigits)
            if yearDigits == 2 { year += year >= 50 ? 1900 : 2000 }
            let o = yearDigits
            let (month, day, hour, minute, second) = (
                number(o, 2), number(o + 2, 2), number(o + 4, 2), number(o + 6, 2), number(o + 8, 2)
            )
            guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else {
                throw .invalidTime
            }
            return CivilTime.unixSeconds(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        }

        private static func extensions(_ reader: inout DER.Reader, version: Int) throws(Error) -> [Extension] {
            // Unique identifiers ([1], [2] IMPLICIT) are skipped; extensions ([3]) are v3 only.
            for tag: UInt8 in [0x81, 0x82] {
                _ = try X509.reading { () throws(DER.Error) in try reader.readIfPresent(tag: tag) }
            }
            guard version == 3, reader.peekTag() == DER.Tag.explicit(3) else { return [] }
            let list = try X509.reading { () throws(DER.Error) in
                try reader.nested(tag: DER.Tag.explicit(3)) { (wrapper: inout DER.Reader) throws(DER.Error) in
                    try wrapper.nested { (sequence: inout DER.Reader) throws(DER.Error) in
                        var list: [Extension] = []
                        while !sequence.isAtEnd {
                            list.append(
                                try sequence.nested { (item: inout DER.Reader) throws(DER.Error) in
                                    let id = try item.objectIdentifier()
                                    let critical = item.peekTag() == DER.Tag.boolean ? try item.boolean() : false
                                    let value = try item.read(tag: DER.Tag.octetString).content
                                    return Extension(id: id, critical: critical, value: Array(value))
                                })
                        }
                        return list
                    }
                }
            }
            var seen = Set<DER.ObjectIdentifier>()
            for item in list where !seen.insert(item.id).inserted { throw .duplicateExtension(item.id) }
            return list
        }

        private static func basicConstraints(in extensions: [Extension]) throws(Error) -> BasicConstraints? {
            guard let item = extensions.first(where: { $0.id == OID.basicConstraints }) else { return nil }
            var reader = DER.Reader(item.value)
            do {
                let constraints = try reader.nested { (sequence: inout DER.Reader) throws(DER.Error) in
                    let isCA = sequence.peekTag() == DER.Tag.boolean ? try sequence.boolean() : false
                    let pathLength = sequence.isAtEnd ? nil : try sequence.smallInteger()
                    return BasicConstraints(isCertificateAuthority: isCA, pathLength: pathLength)
                }
                try reader.finish()
                return constraints
            } catch {
                throw .invalidExtension(OID.basicConstraints)
            }
        }

        private static func aaguid(in extensions: [Extension]) throws(Error) -> [UInt8]? {
            guard let item = extensions.first(where: { $0.id == OID.fidoAAGUID }) else { return nil }
            var reader = DER.Reader(item.value)
            guard let value = try? reader.read(tag: DER.Tag.octetString), reader.isAtEnd, value.content.count == 16
            else { throw .invalidExtension(OID.fidoAAGUID) }
            return Array(value.content)
        }
    }
}
