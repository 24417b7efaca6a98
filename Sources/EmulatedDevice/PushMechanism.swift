import AuthBridgeCore

/// A push registration the phone's authenticator holds, made by scanning a `pushauth://` URI
/// and answering AM's registration message (forgerock-android-sdk `forgerock-authenticator`
/// `PushFactory.java`, `PushMechanism.java`): the shared secret, the endpoints to answer at,
/// and the id (`mechanismUid`) AM addresses its notifications to.
public struct PushMechanism: PhoneRecord {
    public static let stateKey = "push"
    /// The mechanism uid this phone made for the registration and sent to AM.
    public var id: String
    public var issuer: String
    public var accountName: String
    /// Standard base64, as the authenticator keeps it.
    public var secret: String
    public var registrationEndpoint: String
    public var authenticationEndpoint: String
    public var amlbCookie: String?
    /// The username AM put in the URI (`uid`), if it did.
    public var uid: String?
    /// The device's uuid in AM (`pid`), if AM sent it.
    public var resourceId: String?
    /// Seconds since the epoch, on the daemon's clock.
    public var addedAt: Double
    /// Names the app chose to show instead of the issuer and account (`saveCredential`), if any.
    public var displayIssuer: String?
    public var displayAccountName: String?

    public var stateJSON: JSONValue {
        var json: JSONObject = [
            "id": .string(id), "issuer": .string(issuer), "accountName": .string(accountName),
            "secret": .string(secret),
            "registrationEndpoint": .string(registrationEndpoint),
            "authenticationEndpoint": .string(authenticationEndpoint), "addedAt": .double(addedAt),
        ]
        if let amlbCookie { json["amlbCookie"] = .string(amlbCookie) }
        if let uid { json["uid"] = .string(uid) }
        if let resourceId { json["resourceId"] = .string(resourceId) }
        if let displayIssuer { json["displayIssuer"] = .string(displayIssuer) }
        if let displayAccountName { json["displayAccountName"] = .string(displayAccountName) }
        return .object(json)
    }

    public init(state reader: StateReader) throws(StateError) {
        id = try reader.string("id")
        issuer = try reader.string("issuer")
        accountName = try reader.string("accountName")
        secret = try reader.string("secret")
        guard Base64.decode(secret) != nil else { throw StateError("\(reader.path).secret: not standard base64") }
        registrationEndpoint = try reader.string("registrationEndpoint")
        authenticationEndpoint = try reader.string("authenticationEndpoint")
        amlbCookie = try reader.optionalString("amlbCookie")
        uid = try reader.optionalString("uid")
        resourceId = try reader.optionalString("resourceId")
        addedAt = try reader.time("addedAt")
        displayIssuer = try reader.optionalString("displayIssuer")
        displayAccountName = try reader.optionalString("displayAccountName")
    }

    /// What a test sees: no secret.
    public var summaryJSON: JSONObject {
        var json: JSONObject = [
            "id": .string(id), "issuer": .string(issuer), "accountName": .string(accountName),
            "authenticationEndpoint": .string(authenticationEndpoint), "addedAt": .double(addedAt),
        ]
        if let uid { json["uid"] = .string(uid) }
        if let resourceId { json["resourceId"] = .string(resourceId) }
        return json
    }

    /// Scans a registration URI: the mechanism it would hold, and the registration answer to
    /// send (its `messageId`, and a JWT signed with the secret whose `response` is
    /// base64(HMAC-SHA256(secret, challenge)), with the phone's push token as `deviceId`;
    /// `PushFactory.buildPushMechanism`, ping-ios `PingAMPushResponder.makeRegistrationClaims`).
    /// The phone keeps the mechanism only once AM took the answer (200), as the authenticator does.
    public static func scan(
        _ uri: String, deviceToken: String, mechanismUid: String, deviceName: String, now: Double,
        device: PushDeviceKind = .authenticator
    ) throws(PushURIError) -> (mechanism: PushMechanism, registration: DeviceRequest) {
        let parsed = try PushRegistrationURI(uri)
        let mechanism = PushMechanism(
            id: mechanismUid, issuer: parsed.issuer, accountName: parsed.accountName,
            secret: Base64.encode(parsed.secret),
            registrationEndpoint: parsed.registrationEndpoint, authenticationEndpoint: parsed.authenticationEndpoint,
            amlbCookie: parsed.amlbCookie, uid: parsed.uid, resourceId: parsed.resourceId, addedAt: now)
        let claims: JSONObject = [
            "deviceId": .string(deviceToken), "deviceName": .string(deviceName),
            "deviceType": .string(device.deviceType), "communicationType": .string(device.communicationType),
            "mechanismUid": .string(mechanismUid),
            "response": .string(challengeResponse(secret: parsed.secret, challenge: parsed.challenge)),
        ]
        let request = DeviceRequest(
            url: parsed.registrationEndpoint,
            body: [
                "messageId": .string(parsed.messageId), "jwt": .string(JWT(claims: claims).signed(key: parsed.secret)),
            ],
            cookie: parsed.amlbCookie)
        return (mechanism, request)
    }

    /// The issuer and account a registration URI names, checked as `scan` checks it.
    public static func identity(of uri: String) throws(PushURIError) -> (issuer: String, accountName: String) {
        let parsed = try PushRegistrationURI(uri)
        return (parsed.issuer, parsed.accountName)
    }

    /// `PushResponder.generateChallengeResponse`: base64(HMAC-SHA256(secret, challenge)).
    static func challengeResponse(secret: [UInt8], challenge: [UInt8]) -> String {
        Base64.encode(HMACSHA256.Key(secret).authenticate(challenge))
    }

    init(
        id: String, issuer: String, accountName: String, secret: String, registrationEndpoint: String,
        authenticationEndpoint: String, amlbCookie: String?, uid: String?, resourceId: String?, addedAt: Double
    ) {
        self.id = id
        self.issuer = issuer
        self.accountName = accountName
        self.secret = secret
        self.registrationEndpoint = registrationEndpoint
        self.authenticationEndpoint = authenticationEndpoint
        self.amlbCookie = amlbCookie
        self.uid = uid
        self.resourceId = resourceId
        self.addedAt = addedAt
    }
}

/// What a registration tells AM the device is (`deviceType`, `communicationType`): the ForgeRock
/// Authenticator's Android values, or the Ping SDK's per platform (ping-ios
/// `PingAMPushResponder` `ios`/`apns`; ping-android `PushConstants` `android`/`gcm`).
public struct PushDeviceKind: Equatable, Sendable {
    public var deviceType: String
    public var communicationType: String

    public init(deviceType: String, communicationType: String) {
        self.deviceType = deviceType
        self.communicationType = communicationType
    }

    public static let authenticator = PushDeviceKind(deviceType: "android", communicationType: "gcm")
}

/// A request the phone makes to AM's push endpoint, as the ForgeRock Authenticator makes it
/// (`util/RequestBuilder.java`): a JSON `POST` of `{messageId, jwt}` to the URL AM gave it,
/// with the load balancer cookie.
public struct DeviceRequest: Equatable, Sendable {
    public var url: String
    public var body: JSONValue
    public var cookie: String?
}

/// Why a `pushauth://` URI was refused; nothing is stored.
public struct PushURIError: Error, Equatable, Sendable {
    public enum Reason: String, Sendable {
        case notPushAuth = "not a pushauth://push/ URI"
        case noIdentity = "the label names no issuer or account"
        case missing = "is missing or empty"
        case notBase64URL = "is not base64url"
        case notAnEndpoint = "is not an http(s) URL"
    }
    public var reason: Reason
    /// The query parameter at fault, if one is.
    public var parameter: String?

    public var description: String { parameter.map { "\($0) \(reason.rawValue)" } ?? reason.rawValue }
}

/// A `pushauth://push/<issuer>:<account>?…` URI read as the authenticator reads it
/// (`MechanismParser.java`, `PushParser.java`), strictly: the message id, the shared secret,
/// the challenge and both endpoints must be there, each base64url value must decode, and the
/// endpoints must be URLs.
struct PushRegistrationURI {
    var issuer: String
    var accountName: String
    var messageId: String
    var secret: [UInt8]
    var challenge: [UInt8]
    var registrationEndpoint: String
    var authenticationEndpoint: String
    var amlbCookie: String?
    var uid: String?
    var resourceId: String?

    init(_ uri: String) throws(PushURIError) {
        let prefix = "pushauth://push/"
        guard uri.hasPrefix(prefix) else { throw PushURIError(reason: .notPushAuth) }
        let rest = uri.dropFirst(prefix.count)
        let label = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let labelText = PercentEncoding.unescape(label)
        let parts = labelText.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        var issuer = parts[0]
        var account = parts.count > 1 ? parts[1] : parts[0]
        guard !issuer.isEmpty || !account.isEmpty else { throw PushURIError(reason: .noIdentity) }
        if account.isEmpty { account = "Untitled" }
        var query: [String: String] = [:]
        if let mark = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: mark)...].split(separator: "&") {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                query[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
            }
        }
        func required(_ key: String) throws(PushURIError) -> String {
            guard let value = query[key], !value.isEmpty else { throw PushURIError(reason: .missing, parameter: key) }
            return value
        }
        func decoded(_ key: String) throws(PushURIError) -> [UInt8] {
            guard let bytes = Base64URL.decode(try required(key)) else {
                throw PushURIError(reason: .notBase64URL, parameter: key)
            }
            return bytes
        }
        func text(_ key: String) throws(PushURIError) -> String {
            let bytes = try decoded(key)
            guard let text = String(validating: bytes, as: UTF8.self) else {
                throw PushURIError(reason: .notBase64URL, parameter: key)
            }
            return text
        }
        func endpoint(_ key: String) throws(PushURIError) -> String {
            let url = try text(key)
            guard url.hasPrefix("https://") || url.hasPrefix("http://") else {
                throw PushURIError(reason: .notAnEndpoint, parameter: key)
            }
            return url
        }
        func optional(_ key: String) throws(PushURIError) -> String? {
            guard let value = query[key], !value.isEmpty else { return nil }
            return try text(key)
        }
        messageId = try required("m")
        if let named = try optional("issuer") { issuer = named }
        self.issuer = issuer
        accountName = account
        secret = try decoded("s")
        challenge = try decoded("c")
        registrationEndpoint = try endpoint("r")
        authenticationEndpoint = try endpoint("a")
        amlbCookie = try optional("l")
        uid = try optional("uid")
        resourceId = try optional("pid")
    }
}
