/// OpenSSH public keys, one `type base64 [comment]` line as in an authorized_keys file (sshd(8)
/// AUTHORIZED_KEYS FILE FORMAT), for the two kinds a JWS can be checked with: `ssh-rsa`
/// (RFC 4253 §6.6: string "ssh-rsa", mpint e, mpint n) and `ecdsa-sha2-nistp256` (RFC 5656 §3.1:
/// string name, string "nistp256", string Q as an uncompressed SEC 1 point). AM's Amster JWT
/// node verifies Amster's JWTs with the keys of such a file. Options before the type (`from=…`)
/// are the caller's to split off.
extension PublicKey {
    public enum OpenSSHError: Error, Equatable, Sendable {
        /// Not `type base64 [comment]`, or the base64 does not decode.
        case malformed
        /// A key type other than ssh-rsa and ecdsa-sha2-nistp256 (`type` as written).
        case unsupportedType(String)
        /// The type named on the line differs from the one inside the key blob.
        case typeMismatch
        /// The blob's fields are short, overlong, or followed by extra bytes.
        case invalidBlob
        case invalidP256Key(P256.KeyError)
        case invalidRSAKey(RSA.KeyError)
    }

    public init(openSSH line: String) throws(OpenSSHError) {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count >= 2 else { throw .malformed }
        let type = fields[0]
        guard type == "ssh-rsa" || type == "ecdsa-sha2-nistp256" else { throw .unsupportedType(type) }
        guard let blob = Base64.decode(fields[1]) else { throw .malformed }
        var reader = SSHWireReader(bytes: blob[...])
        guard let name = reader.string(), String(decoding: name, as: UTF8.self) == type else {
            throw reader.failed ? .invalidBlob : .typeMismatch
        }
        if type == "ssh-rsa" {
            // mpints: a set high bit would make them negative.
            guard let e = reader.string(), let n = reader.string(), reader.isAtEnd,
                (e.first ?? 0) & 0x80 == 0, (n.first ?? 0) & 0x80 == 0
            else { throw .invalidBlob }
            do { self = .rsa(try RSA.PublicKey(modulus: Array(n), exponent: Array(e))) } catch {
                throw .invalidRSAKey(error)
            }
        } else {
            guard let curve = reader.string(), String(decoding: curve, as: UTF8.self) == "nistp256",
                let point = reader.string(), reader.isAtEnd
            else { throw .invalidBlob }
            do { self = .p256(try P256.PublicKey(uncompressedPoint: Array(point))) } catch {
                throw .invalidP256Key(error)
            }
        }
    }

    /// The key as an authorized_keys line (`type base64`, no comment).
    public var openSSH: String {
        func string(_ bytes: [UInt8]) -> [UInt8] {
            let n = UInt32(bytes.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + bytes
        }
        // mpint (RFC 4251 §5): two's complement, so a set high bit gets a zero byte in front.
        func mpint(_ magnitude: [UInt8]) -> [UInt8] {
            let trimmed = Array(magnitude.drop { $0 == 0 })
            return string(trimmed.first.map { $0 & 0x80 != 0 } == true ? [0] + trimmed : trimmed)
        }
        switch self {
        case .rsa(let key):
            let blob = string(Array("ssh-rsa".utf8)) + mpint(key.exponentBytes) + mpint(key.modulusBytes)
            return "ssh-rsa " + Base64.encode(blob)
        case .p256(let key):
            let name = Array("ecdsa-sha2-nistp256".utf8)
            let blob = string(name) + string(Array("nistp256".utf8)) + string(key.uncompressedPoint)
            return "ecdsa-sha2-nistp256 " + Base64.encode(blob)
        }
    }
}

/// RFC 4251 §5 `string` fields: a 32-bit big-endian length, then that many bytes.
private struct SSHWireReader {
    var bytes: ArraySlice<UInt8>
    var failed = false

    var isAtEnd: Bool { bytes.isEmpty }

    mutating func string() -> ArraySlice<UInt8>? {
        guard bytes.count >= 4 else {
            failed = true
            return nil
        }
        let length = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        bytes = bytes.dropFirst(4)
        guard bytes.count >= length else {
            failed = true
            return nil
        }
        defer { bytes = bytes.dropFirst(length) }
        return bytes.prefix(length)
    }
}
