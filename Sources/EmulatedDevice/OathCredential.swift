import AuthBridgeCore

/// An authenticator app's OATH credential, from the `otpauth://` URI a registration step
/// shows (Google's Key Uri Format, as AM's OATH Registration node writes it and the ForgeRock
/// Authenticator reads it): the secret, TOTP or HOTP, algorithm, digits, period or counter.
/// It makes codes on the daemon's clock with the RFC 4226/6238 algorithm; it knows nothing of
/// the server's copy.
public struct OathCredential: PhoneRecord {
    public static let stateKey = "oath"

    public enum Kind: String, Sendable { case totp, hotp }

    /// `issuer:accountName`: scanning a URI for the same account again replaces the credential, as
    /// authenticator apps do.
    public var id: String { "\(issuer):\(accountName)" }
    public var issuer: String
    public var accountName: String
    public var kind: Kind
    public var secret: [UInt8]
    public var algorithm: OATH.Algorithm
    public var digits: OATH.Digits
    /// TOTP: seconds per code.
    public var period: Int
    /// HOTP: the counter of the next code the app shows.
    public var counter: UInt64
    /// What the successor SDK's OATH client keeps beside it; nil for one the old bridges'
    /// authenticator app scanned.
    public var app: OathAppRecord?

    public init(
        issuer: String, accountName: String, kind: Kind, secret: [UInt8], algorithm: OATH.Algorithm = .sha1,
        digits: OATH.Digits = .six, period: Int = 30, counter: UInt64 = 0
    ) {
        self.issuer = issuer
        self.accountName = accountName
        self.kind = kind
        self.secret = secret
        self.algorithm = algorithm
        self.digits = digits
        self.period = period
        self.counter = counter
    }

    /// The code the app shows at `unixSeconds`. A TOTP code depends only on the time; an HOTP
    /// code is the one at the counter, which `nextCode` advances.
    public func code(at unixSeconds: Double) -> String {
        switch kind {
        case .totp:
            OATH.totp(
                secret: secret, unixSeconds: Int64(unixSeconds.rounded(.down)), period: period, digits: digits,
                algorithm: algorithm)
        case .hotp: OATH.hotp(secret: secret, counter: counter, digits: digits, algorithm: algorithm)
        }
    }

    /// What a user gets by asking the app for a code: TOTP, the current one; HOTP, the one at the
    /// counter, after which the counter moves on (each press of the app's refresh button).
    public mutating func nextCode(at unixSeconds: Double) -> String {
        let shown = code(at: unixSeconds)
        if kind == .hotp { counter &+= 1 }
        return shown
    }

    // MARK: saved state

    public var stateJSON: JSONValue {
        var json: JSONObject = [
            "issuer": .string(issuer), "accountName": .string(accountName), "kind": .string(kind.rawValue),
            "secret": .string(Base64URL.encode(secret)), "algorithm": .string(algorithm.rawValue),
            "digits": .int(Int64(digits.rawValue)),
        ]
        switch kind {
        case .totp: json["period"] = .int(Int64(period))
        case .hotp: json["counter"] = .string(String(counter))
        }
        if let app { json["app"] = app.stateJSON }
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        issuer = try reader.string("issuer")
        accountName = try reader.string("accountName")
        let kindName = try reader.string("kind")
        guard let kind = Kind(rawValue: kindName) else { throw StateError("\(reader.path).kind: totp or hotp") }
        self.kind = kind
        secret = try reader.bytes("secret")
        guard !secret.isEmpty else { throw StateError("\(reader.path).secret: must not be empty") }
        guard let algorithm = OATH.Algorithm(rawValue: try reader.string("algorithm")) else {
            throw StateError("\(reader.path).algorithm: SHA1, SHA256 or SHA512")
        }
        self.algorithm = algorithm
        guard let digits = OATH.Digits(rawValue: Int(clamping: try reader.int("digits"))) else {
            throw StateError("\(reader.path).digits: 6 or 8")
        }
        self.digits = digits
        period = 30
        counter = 0
        switch kind {
        case .totp:
            let seconds = try reader.int("period")
            guard seconds > 0, seconds <= 86_400 else { throw StateError("\(reader.path).period: 1 to 86400") }
            period = Int(seconds)
        case .hotp:
            guard let value = UInt64(try reader.string("counter")) else {
                throw StateError("\(reader.path).counter: a whole number, as a string")
            }
            counter = value
        }
        app = try reader["app"].optionalReader().map { entry throws(StateError) in try OathAppRecord(state: entry) }
    }

    /// What a test sees: no secret.
    public var summaryJSON: JSONObject {
        var json: JSONObject = [
            "id": .string(id), "issuer": .string(issuer), "accountName": .string(accountName),
            "type": .string(kind.rawValue), "algorithm": .string(algorithm.rawValue),
            "digits": .int(Int64(digits.rawValue)),
        ]
        switch kind {
        case .totp: json["period"] = .int(Int64(period))
        case .hotp: json["counter"] = .int(Int64(clamping: counter))
        }
        return json
    }
}
