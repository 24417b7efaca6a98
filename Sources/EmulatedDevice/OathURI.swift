import AuthBridgeCore

/// Reading an `otpauth://` URI (Google's Key Uri Format; what AM's OATH Registration node
/// writes): `otpauth://totp|hotp/<issuer>:<account>?secret=…[&issuer=…][&algorithm=…][&digits=…]`
/// `[&period=…][&counter=…]`, other parameters (AM's `b`, `image`, `uid`, `oid`) ignored here
/// (the SDK's client keeps them: `OathAppRecord.swift`). `mfauth://` (AM's combined push and OATH
/// registration) reads the same, its `issuer` base64url-encoded (ping-ios-sdk
/// `Oath/Oath/Utilities/OathUriParser.swift`). Strict: anything malformed is a typed error, never a guess.
extension OathCredential {
    public enum URIError: Error, Equatable, Sendable {
        /// Neither `otpauth://…` nor `mfauth://…`.
        case notOtpauth
        /// The type (the URI's host) is neither `totp` nor `hotp`.
        case unknownType(String)
        /// No `/label` with an account name.
        case missingAccountName
        /// A `%` not followed by two hex digits, or escapes that are not UTF-8.
        case badEscape
        /// A parameter without `=`, or named twice.
        case badParameter(String)
        case missingSecret
        case badSecret(Base32.DecodingError)
        /// The issuer parameter names another issuer than the label's prefix.
        case issuerMismatch(label: String, parameter: String)
        /// A parameter's value is not one it can have (`digits=7`, `period=0`, `algorithm=MD5`).
        case badValue(parameter: String, value: String)
    }

    public init(uri: String) throws(URIError) { self = try Self.parsing(uri).credential }

    /// The credential and the URI's decoded parameters, by lowercased name.
    struct Parsed {
        var credential: OathCredential
        var parameters: [String: String]
    }

    static func parsing(_ uri: String) throws(URIError) -> Parsed {
        let lowered = uri.lowercased()
        guard let prefix = ["otpauth://", "mfauth://"].first(where: { lowered.hasPrefix($0) }) else {
            throw .notOtpauth
        }
        let rest = uri.dropFirst(prefix.count)
        let (location, query) = Self.split(rest, at: "?")
        let (typeName, path) = Self.split(location, at: "/")
        guard let kind = Kind(rawValue: typeName.lowercased()) else { throw .unknownType(String(typeName)) }
        guard let path, !path.isEmpty else { throw .missingAccountName }
        let label = try Self.percentDecoded(path)
        var labelIssuer: String?
        var account = label
        if let colon = label.firstIndex(of: ":") {
            labelIssuer = String(label[..<colon])
            account = String(label[label.index(after: colon)...]).trimmingLeadingSpaces
        }
        guard !account.isEmpty else { throw .missingAccountName }
        var params: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let (name, value) = Self.split(pair, at: "=")
            guard let value, !name.isEmpty else { throw .badParameter(String(pair)) }
            let key = name.lowercased()
            guard params[key] == nil else { throw .badParameter(String(name)) }
            params[key] = try Self.percentDecoded(value)
        }
        guard let secretText = params["secret"], !secretText.isEmpty else { throw .missingSecret }
        let secret: [UInt8]
        do { secret = try Base32.decode(secretText) } catch { throw .badSecret(error) }
        guard !secret.isEmpty else { throw .missingSecret }
        if prefix == "mfauth://", let named = params["issuer"], let decoded = Self.base64Text(named) {
            params["issuer"] = decoded
        }
        let issuer = params["issuer"] ?? labelIssuer ?? ""
        if let labelIssuer, let parameter = params["issuer"], parameter != labelIssuer {
            throw .issuerMismatch(label: labelIssuer, parameter: parameter)
        }
        let algorithm = try Self.value(params, "algorithm", default: .sha1) {
            OATH.Algorithm(rawValue: $0.uppercased())
        }
        let digits = try Self.value(params, "digits", default: .six) { Int($0).flatMap(OATH.Digits.init(rawValue:)) }
        let period = try Self.value(params, "period", default: 30) { text in
            Int(text).flatMap { (1...86_400).contains($0) ? $0 : nil }
        }
        let counter = try Self.value(params, "counter", default: UInt64(0)) { UInt64($0) }
        return Parsed(
            credential: OathCredential(
                issuer: issuer, accountName: account, kind: kind, secret: secret, algorithm: algorithm,
                digits: digits, period: period, counter: counter),
            parameters: params)
    }

    private static func value<T>(
        _ params: [String: String], _ name: String, default fallback: T, _ read: (String) -> T?
    ) throws(URIError) -> T {
        guard let text = params[name] else { return fallback }
        guard let value = read(text) else { throw .badValue(parameter: name, value: text) }
        return value
    }

    private static func split(_ text: Substring, at separator: Character) -> (Substring, Substring?) {
        guard let index = text.firstIndex(of: separator) else { return (text, nil) }
        return (text[..<index], text[text.index(after: index)...])
    }

    static func percentDecoded(_ text: Substring) throws(URIError) -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .badEscape
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else { throw .badEscape }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

extension Phone {
    /// The phone scans an `otpauth://` URI: the credential is added, or replaces the one for the
    /// same issuer and account.
    @discardableResult
    public mutating func scanOath(_ uri: String) throws(OathCredential.URIError) -> OathCredential {
        let credential = try OathCredential(uri: uri)
        if let index = oath.firstIndex(where: { $0.id == credential.id }) {
            oath[index] = credential
        } else {
            oath.append(credential)
        }
        return credential
    }
}

extension String {
    fileprivate var trimmingLeadingSpaces: String { String(drop { $0 == " " }) }
}
