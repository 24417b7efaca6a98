import AuthBridgeCore

/// An OpenSSH `authorized_keys` file as AM's Amster JWT node reads it (`ForgeRock/am-external`
/// auth-nodes/…/amster/AuthorizedKeys.java, AuthorizedKey.java, Key.java): one key a line,
/// optional options before it (`subject="ada,*"`, `from="127.0.0.1"`), then the type and the
/// base64 key blob in SSH's wire format (RFC 4253 §6.6 for `ssh-rsa`, RFC 5656 §3.1 for
/// `ecdsa-sha2-nistp256`). The blob's base64 text is the key's id: a JWT names its key by it in
/// `kid`. Lines that are no key (blank, comments) are skipped; a key of a kind JWS here cannot
/// verify (DSA, Ed25519, P-384, P-521) is skipped with the reason, as AM skips what it cannot use.
struct AuthorizedKeys: Sendable {
    struct Key: Sendable {
        /// The blob's base64 text, as the file writes it.
        var id: String
        var key: JWS.VerificationKey
        /// Options by lowercased name (AM matches them case-insensitively).
        var options: [String: String]

        /// AM's checks besides the signature: the `subject` option lists the subjects allowed
        /// (`*` any), and the `from` option the client addresses, which for the daemon's local
        /// clients is the loopback address.
        func allows(subject: String) -> Bool {
            if let subjects = options["subject"] {
                guard subjects.split(separator: ",").contains(where: { $0 == "*" || $0 == subject }) else {
                    return false
                }
            }
            if let from = options["from"] {
                var accepted = false
                for pattern in from.split(separator: ",") {
                    let negated = pattern.hasPrefix("!")
                    if Self.matches(negated ? pattern.dropFirst() : pattern[...], "127.0.0.1") {
                        if negated { return false }
                        accepted = true
                    }
                }
                return accepted
            }
            return true
        }

        /// ssh's `*` and `?` patterns, and the loopback network in CIDR form.
        private static func matches(_ pattern: Substring, _ address: String) -> Bool {
            if pattern.contains("/") { return pattern.hasPrefix("127.") }
            func match(_ p: Substring, _ a: Substring) -> Bool {
                guard let first = p.first else { return a.isEmpty }
                if first == "*" { return match(p.dropFirst(), a) || (!a.isEmpty && match(p, a.dropFirst())) }
                guard let c = a.first, first == "?" || first == c else { return false }
                return match(p.dropFirst(), a.dropFirst())
            }
            return match(pattern, address[...])
        }
    }

    var keys: [Key] = []
    /// Why each line that looked like a key was not kept, for the log.
    var skipped: [String] = []

    static let maxLines = 10_000

    init(text: String) {
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(Self.maxLines)
            .enumerated()
        {
            let line = raw.trimmingTrailingCarriageReturn
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            switch Self.parse(line) {
            case .success(let key?): keys.append(key)
            case .success(nil): continue
            case .failure(let why): skipped.append("line \(number + 1): \(why.reason)")
            }
        }
    }

    struct Skip: Error { var reason: String }

    private static let types = [
        "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521", "ssh-ed25519",
        "ssh-dss", "ssh-rsa",
    ]

    private static func parse(_ line: Substring) -> Result<Key?, Skip> {
        // The type starts the line, or follows the options and a space.
        var optionsText: Substring = ""
        var rest = line
        if !types.contains(where: { line.hasPrefix($0 + " ") }) {
            // The first space after which a type and a space follow.
            guard
                let start = line.indices.first(where: { index in
                    line[index] == " " && types.contains { line[line.index(after: index)...].hasPrefix($0 + " ") }
                })
            else { return .success(nil) }
            optionsText = line[..<start]
            rest = line[line.index(after: start)...]
        }
        let parts = rest.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return .success(nil) }
        let type = String(parts[0])
        let encoded = String(parts[1])
        guard let blob = StandardBase64.decode(encoded) else { return .failure(Skip(reason: "the key is not base64")) }
        var reader = SSHWireReader(blob)
        guard let blobType = reader.string(), blobType == Array(type.utf8) else {
            return .failure(Skip(reason: "the key blob does not start with its type \(type)"))
        }
        let key: JWS.VerificationKey
        switch type {
        case "ssh-rsa":
            guard let exponent = reader.string(), let modulus = reader.string() else {
                return .failure(Skip(reason: "a truncated ssh-rsa key"))
            }
            do {
                key = .rsa(try RSA.PublicKey(modulus: modulus, exponent: exponent))
            } catch {
                return .failure(Skip(reason: "an RSA key JWS cannot use here (\(error))"))
            }
        case "ecdsa-sha2-nistp256":
            guard reader.string() == Array("nistp256".utf8), let point = reader.string() else {
                return .failure(Skip(reason: "an ecdsa-sha2-nistp256 blob without its curve and point"))
            }
            do {
                key = .p256(try P256.PublicKey(uncompressedPoint: point))
            } catch {
                return .failure(Skip(reason: "not a point on P-256 (\(error))"))
            }
        default:
            return .failure(Skip(reason: "\(type) keys are not supported here (ES256 and RS256 only)"))
        }
        return .success(Key(id: encoded, key: key, options: options(optionsText)))
    }

    /// `name="value"` and bare flags, comma-separated; `\"` inside a value.
    private static func options(_ text: Substring) -> [String: String] {
        var options: [String: String] = [:]
        var name = ""
        var value: String? = nil
        var escaped = false
        var rest = text[...]
        while let c = rest.popFirst() {
            if var v = value {
                if c == "\\" && !escaped {
                    escaped = true
                } else if c == "\"" && !escaped {
                    options[name.lowercased()] = v
                    name = ""
                    value = nil
                    if rest.first == "," { rest.removeFirst() }
                    continue
                } else {
                    v.append(c)
                    escaped = false
                }
                value = v
            } else if c == "=" {
                value = ""
                if rest.first == "\"" { rest.removeFirst() }
            } else if c == "," {
                name = ""
            } else {
                name.append(c)
            }
        }
        return options
    }
}

/// SSH's `string` (RFC 4251 §5): a big-endian uint32 length, then that many bytes.
private struct SSHWireReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) { self.bytes = bytes[...] }

    mutating func string() -> [UInt8]? {
        guard bytes.count >= 4 else { return nil }
        let length = bytes.prefix(4).reduce(0) { $0 << 8 | Int($1) }
        bytes = bytes.dropFirst(4)
        guard length <= bytes.count else { return nil }
        defer { bytes = bytes.dropFirst(length) }
        return Array(bytes.prefix(length))
    }
}

/// Base64 with the standard alphabet and padding (RFC 4648 §4), as `authorized_keys` writes it.
private enum StandardBase64 {
    static func decode(_ text: String) -> [UInt8]? {
        var url = ""
        url.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "+": url.append("-")
            case "/": url.append("_")
            case "-", "_": return nil
            case "=": continue
            default: url.append(c)
            }
        }
        return Base64URL.decode(url)
    }
}

extension Substring {
    fileprivate var trimmingTrailingCarriageReturn: Substring { hasSuffix("\r") ? dropLast() : self }
}
