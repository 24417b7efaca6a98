import AuthBridgeCore
import Testing

/// authorized_keys lines refused with a typed error (well-formed ones from ssh-keygen are in
/// NodeCryptoFixtureTests), and standard base64 (RFC 4648 §4) on its test vectors.
@Suite struct OpenSSHKeyTests {
    static let p256 = try! P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 31) + [1]).publicKey

    static func blob(_ fields: [[UInt8]]) -> String {
        Base64.encode(fields.flatMap { [0, 0, UInt8($0.count >> 8), UInt8($0.count & 0xFF)] + $0 })
    }

    @Test func linesRoundTrip() throws {
        let key = PublicKey.p256(Self.p256)
        #expect(try PublicKey(openSSH: key.openSSH) == key)
        #expect(try PublicKey(openSSH: key.openSSH + " comment with spaces") == key)
        #expect(try PublicKey(openSSH: String(key.openSSH.map { $0 == " " ? "\t" : $0 })) == key)
    }

    @Test func badLinesAreRefused() {
        let name = Array("ecdsa-sha2-nistp256".utf8)
        let curve = Array("nistp256".utf8)
        let point = Self.p256.uncompressedPoint
        var offCurve = point
        offCurve[64] ^= 1
        let cases: [(String, PublicKey.OpenSSHError)] = [
            ("", .malformed),
            ("ssh-rsa", .malformed),
            ("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIA", .unsupportedType("ssh-ed25519")),
            ("ecdsa-sha2-nistp256 ***", .malformed),
            ("ecdsa-sha2-nistp256 " + Self.blob([Array("ssh-rsa".utf8)]), .typeMismatch),
            ("ecdsa-sha2-nistp256 " + Self.blob([name, curve]), .invalidBlob),
            ("ecdsa-sha2-nistp256 " + Self.blob([name, Array("nistp384".utf8), point]), .invalidBlob),
            ("ecdsa-sha2-nistp256 " + Self.blob([name, curve, point, [0]]), .invalidBlob),
            ("ecdsa-sha2-nistp256 " + Self.blob([name, curve, offCurve]), .invalidP256Key(.notOnCurve)),
            ("ecdsa-sha2-nistp256 " + Base64.encode([0, 0, 0, 200, 1]), .invalidBlob),
            (
                "ssh-rsa "
                    + Self.blob([Array("ssh-rsa".utf8), [1, 0, 1], [0x80] + [UInt8](repeating: 1, count: 255)]),
                .invalidBlob
            ),
            (
                "ssh-rsa "
                    + Self.blob([Array("ssh-rsa".utf8), [1, 0, 1], [0x7F] + [UInt8](repeating: 1, count: 127)]),
                .invalidRSAKey(.unsupportedModulusSize(bits: 1023))
            ),
        ]
        for (line, error) in cases {
            #expect(throws: error, "\(line)") { try PublicKey(openSSH: line) }
        }
    }

    /// RFC 4648 §10.
    @Test func standardBase64() {
        let vectors = [
            ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64.encode([0xFB, 0xFF]) == "+/8=")
        #expect(Base64.decode("+/8=") == [0xFB, 0xFF])
        for bad in ["-_8=", "Zg", "Zg===", "Z===", "Zm9v=", "Zg=a", "Z=g="] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }
}
