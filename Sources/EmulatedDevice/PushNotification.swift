import AuthBridgeCore

/// A push notification delivered to the phone and not yet expired, read as the
/// ForgeRock Authenticator reads one (forgerock-android-sdk `forgerock-authenticator`
/// `NotificationFactory.java`): the message id and the JWT AM signed with the registration's
/// secret, whose claims carry the mechanism uid `u`, the challenge `c`, the text `m`, the push
/// type `k`, the time sent `i` (ms), its lifetime `t` (s) and, for a number challenge, the
/// three numbers `n`, the custom payload `p` and the context `x`. Once answered it stays,
/// marked, as the authenticators' notification history keeps it (ping-ios `PushNotification`
/// `markApproved`/`markDenied`, ping-android `PushNotification.kt`).
public struct PushNotification: PhoneRecord {
    public static let stateKey = "notifications"
    /// AM's message id.
    public var id: String
    public var mechanismUid: String
    /// Standard base64.
    public var challenge: String
    public var message: String
    /// `default`, `challenge` or `biometric`.
    public var pushType: String
    /// The numbers to choose from, for a number challenge.
    public var numbers: [Int]
    public var amlbCookie: String?
    /// Seconds since the epoch.
    public var sentAt: Double
    public var expiresAt: Double
    /// The `p` and `x` claims as AM sent them (JSON text), if it did.
    public var customPayload: String?
    public var contextInfo: String?
    /// The id the app's push SDK gave it when it first handled it (ping-ios/ping-android
    /// `PushNotification.id`, a UUID of its own beside AM's message id); nil until then.
    public var appId: String?
    /// When it was answered (seconds since the epoch), nil while it waits.
    public var respondedAt: Double?
    public var approved = false

    public var isPending: Bool { respondedAt == nil }

    public var stateJSON: JSONValue { .object(fields(withChallenge: true)) }

    public init(state reader: StateReader) throws(StateError) {
        id = try reader.string("id")
        mechanismUid = try reader.string("mechanismUid")
        challenge = try reader.string("challenge")
        message = try reader.string("message")
        pushType = try reader.string("pushType")
        numbers =
            try reader["numbers"].optionalElements()?.map { field throws(StateError) in Int(try field.int()) }
            ?? []
        amlbCookie = try reader.optionalString("amlbCookie")
        sentAt = try reader.time("sentAt")
        expiresAt = try reader.time("expiresAt")
        customPayload = try reader.optionalString("customPayload")
        contextInfo = try reader.optionalString("contextInfo")
        appId = try reader.optionalString("appId")
        respondedAt = try reader["respondedAt"].optionalTime()
        approved = try reader["approved"].optionalBool() ?? false
    }

    /// What a test sees: no challenge.
    public var summaryJSON: JSONObject { fields(withChallenge: false) }

    private func fields(withChallenge: Bool) -> JSONObject {
        var json: JSONObject = [
            "id": .string(id), "mechanismUid": .string(mechanismUid), "message": .string(message),
            "pushType": .string(pushType), "sentAt": .double(sentAt), "expiresAt": .double(expiresAt),
        ]
        if !numbers.isEmpty { json["numbers"] = .array(numbers.map { .int(Int64($0)) }) }
        if let appId { json["appId"] = .string(appId) }
        if let respondedAt {
            json["respondedAt"] = .double(respondedAt)
            json["approved"] = .bool(approved)
        }
        if withChallenge {
            json["challenge"] = .string(challenge)
            if let amlbCookie { json["amlbCookie"] = .string(amlbCookie) }
            if let customPayload { json["customPayload"] = .string(customPayload) }
            if let contextInfo { json["contextInfo"] = .string(contextInfo) }
        }
        return json
    }

    public var isNumberChallenge: Bool { pushType == "challenge" }

    /// Why the phone dropped a message it was sent, as the authenticator drops it
    /// (`InvalidNotificationException`).
    public enum Refusal: Error, Equatable, Sendable {
        case malformed
        case unknownMechanism
        case badSignature
    }

    /// Reads a delivered message: the mechanism it names must be on this phone and its secret
    /// must verify the JWT.
    static func read(
        messageId: String, jwt: String, mechanisms: [PushMechanism], now: Double
    ) throws(Refusal) -> PushNotification {
        guard let claims = unverifiedClaims(jwt), case .string(let uid)? = claims["u"],
            case .string(let challenge)? = claims["c"]
        else { throw .malformed }
        guard let mechanism = mechanisms.first(where: { $0.id == uid }) else { throw .unknownMechanism }
        guard let secret = Base64.decode(mechanism.secret), (try? JWT.verify(jwt, key: secret)) != nil else {
            throw .badSignature
        }
        func text(_ claim: String) -> String? { claims[claim]?.stringValue }
        let ttl = text("t").flatMap { Double($0) } ?? 120
        let sent = text("i").flatMap { Double($0) }.map { $0 / 1000 } ?? now
        let pushType = text("k") ?? "default"
        var numbers: [Int] = []
        if pushType == "challenge", let list = text("n") {
            numbers = list.split(separator: ",").compactMap { Int($0) }
        }
        var notification = PushNotification(
            id: messageId, mechanismUid: uid, challenge: challenge, message: text("m") ?? "", pushType: pushType,
            numbers: numbers,
            amlbCookie: text("l").flatMap { Base64.decode($0) }.map { String(decoding: $0, as: UTF8.self) },
            sentAt: sent, expiresAt: sent + ttl)
        notification.customPayload = text("p")
        notification.contextInfo = text("x")
        return notification
    }

    /// The claims of a compact JWS before its key is known (the mechanism uid says which key).
    private static func unverifiedClaims(_ jwt: String) -> JSONObject? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let bytes = Base64URL.decode(String(parts[1])),
            case .object(let claims)? = try? JSONParser.parse(bytes)
        else { return nil }
        return claims
    }

    /// The answer (`PushResponder.authentication`, `authenticationWithChallenge`; ping-ios
    /// `PingAMPushResponder.sendAuthenticationResponse`): `response` = base64(HMAC-SHA256(secret,
    /// challenge)); `deny: true` when denied; the chosen number as `challengeResponse` for a
    /// number challenge.
    func answer(approve: Bool, challengeResponse: String?, mechanism: PushMechanism) -> DeviceRequest {
        let secret = Base64.decode(mechanism.secret) ?? []
        var claims: JSONObject = [
            "response": .string(
                PushMechanism.challengeResponse(secret: secret, challenge: Base64.decode(challenge) ?? []))
        ]
        if !approve { claims["deny"] = true }
        if approve, isNumberChallenge, let challengeResponse {
            claims["challengeResponse"] = .string(challengeResponse)
        }
        return DeviceRequest(
            url: mechanism.authenticationEndpoint,
            body: ["messageId": .string(id), "jwt": .string(JWT(claims: claims).signed(key: secret))],
            cookie: amlbCookie)
    }

    init(
        id: String, mechanismUid: String, challenge: String, message: String, pushType: String, numbers: [Int],
        amlbCookie: String?, sentAt: Double, expiresAt: Double
    ) {
        self.id = id
        self.mechanismUid = mechanismUid
        self.challenge = challenge
        self.message = message
        self.pushType = pushType
        self.numbers = numbers
        self.amlbCookie = amlbCookie
        self.sentAt = sentAt
        self.expiresAt = expiresAt
    }
}

extension Phone {
    /// A message from the push service: kept unless the phone already has it or refuses it.
    /// True when it is new here.
    @discardableResult
    public mutating func receive(messageId: String, jwt: String, now: Double) throws(PushNotification.Refusal) -> Bool {
        guard !notifications.contains(where: { $0.id == messageId }) else { return false }
        notifications.append(try PushNotification.read(messageId: messageId, jwt: jwt, mechanisms: push, now: now))
        return true
    }

    /// Drops the unanswered notifications whose time is up; answered ones stay in the history.
    public mutating func dropExpiredNotifications(now: Double) {
        notifications.removeAll { $0.isPending && $0.expiresAt <= now }
    }

    /// The answer to a pending notification, or nil when it is not here, was answered, or its
    /// mechanism is gone.
    public func answer(notification id: String, approve: Bool, challengeResponse: String?) -> DeviceRequest? {
        guard let notification = notifications.first(where: { $0.id == id && $0.isPending }),
            let mechanism = push.first(where: { $0.id == notification.mechanismUid })
        else { return nil }
        return notification.answer(approve: approve, challengeResponse: challengeResponse, mechanism: mechanism)
    }

    /// Marks a notification answered (the server took the answer).
    public mutating func markAnswered(notification id: String, approved: Bool, now: Double) {
        guard let index = notifications.firstIndex(where: { $0.id == id }) else { return }
        notifications[index].respondedAt = now
        notifications[index].approved = approved
    }
}
