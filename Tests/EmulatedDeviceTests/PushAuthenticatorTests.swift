import AuthBridgeCore
import Testing

@testable import EmulatedDevice

/// The phone's push authenticator on its own: the `pushauth://` URI read strictly, the
/// registration and authentication answers it signs, the notifications it keeps or drops.
@Suite struct PushAuthenticatorTests {
    static let secret = [UInt8](repeating: 1, count: 32)
    static let challenge = [UInt8](repeating: 2, count: 32)
    static let endpoint = "http://localhost:8080/am/json/alpha/push/sns/message?_action="

    static func uri(_ drop: String? = nil, replace: (String, String)? = nil) -> String {
        var parameters: [(String, String)] = [
            ("l", Base64URL.encode(Array("amlbcookie=01".utf8))),
            ("issuer", Base64URL.encode(Array("Example Bank".utf8))),
            ("m", "REGISTER:abc123"), ("s", Base64URL.encode(secret)), ("c", Base64URL.encode(challenge)),
            ("r", Base64URL.encode(Array((endpoint + "register").utf8))),
            ("a", Base64URL.encode(Array((endpoint + "authenticate").utf8))),
            ("uid", Base64URL.encode(Array("ada".utf8))), ("pid", Base64URL.encode(Array("dev-1".utf8))),
            ("b", "032b75"), ("image", ""),
        ]
        parameters.removeAll { $0.0 == drop }
        if let (key, value) = replace, let index = parameters.firstIndex(where: { $0.0 == key }) {
            parameters[index].1 = value
        }
        return "pushauth://push/Example%20Bank:Ada%20L?" + parameters.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }

    @Test func scanningReadsTheURIAndSignsTheRegistrationAsTheAuthenticatorDoes() throws {
        let (mechanism, request) = try PushMechanism.scan(
            Self.uri(), deviceToken: "tok", mechanismUid: "M-1", deviceName: "Phone", now: 100)
        #expect(mechanism.issuer == "Example Bank")
        #expect(mechanism.accountName == "Ada L")
        #expect(mechanism.uid == "ada" && mechanism.resourceId == "dev-1")
        #expect(mechanism.amlbCookie == "amlbcookie=01")
        #expect(mechanism.summaryJSON["secret"] == nil)
        #expect(request.url == Self.endpoint + "register")
        #expect(request.body["messageId"] == "REGISTER:abc123")
        let jwt = try JWT.verify(request.body["jwt"]?.stringValue ?? "", key: Self.secret)
        #expect(jwt.claims["deviceId"] == "tok")
        #expect(jwt.claims["mechanismUid"] == "M-1")
        #expect(jwt.claims["communicationType"] == "gcm" && jwt.claims["deviceType"] == "android")
        #expect(
            jwt.claims["response"]
                == .string(Base64.encode(HMACSHA256.Key(Self.secret).authenticate(Self.challenge))))
    }

    @Test func aMalformedURIIsATypedRefusal() {
        let cases: [(String, PushURIError)] = [
            ("otpauth://totp/x?secret=A", PushURIError(reason: .notPushAuth)),
            (Self.uri("m"), PushURIError(reason: .missing, parameter: "m")),
            (Self.uri("s"), PushURIError(reason: .missing, parameter: "s")),
            (Self.uri(replace: ("c", "not*base64")), PushURIError(reason: .notBase64URL, parameter: "c")),
            (
                Self.uri(replace: ("a", Base64URL.encode(Array("ftp://x".utf8)))),
                PushURIError(reason: .notAnEndpoint, parameter: "a")
            ),
            ("pushauth://push/?m=1", PushURIError(reason: .noIdentity)),
        ]
        for (uri, expected) in cases {
            #expect(throws: expected) {
                _ = try PushMechanism.scan(uri, deviceToken: "t", mechanismUid: "m", deviceName: "p", now: 0)
            }
        }
    }

    static func phoneWithMechanism() throws -> Phone {
        var phone = Phone(id: "ada", owner: "ada", deviceToken: "tok")
        phone.push = [
            try PushMechanism.scan(Self.uri(), deviceToken: "tok", mechanismUid: "M-1", deviceName: "p", now: 0)
                .mechanism
        ]
        return phone
    }

    static func message(_ claims: JSONObject, key: [UInt8] = secret) -> String { JWT(claims: claims).signed(key: key) }

    @Test func aNotificationIsKeptOnlyWhenItsMechanismsSecretVerifiesIt() throws {
        var phone = try Self.phoneWithMechanism()
        let claims: JSONObject = [
            "u": "M-1", "c": .string(Base64.encode(Self.challenge)), "m": "Login attempt", "k": "challenge",
            "n": "12,34,56", "i": "1000000", "t": "120", "l": .string(Base64.encode(Array("amlbcookie=01".utf8))),
        ]
        #expect(throws: PushNotification.Refusal.badSignature) {
            try phone.receive(messageId: "A:1", jwt: Self.message(claims, key: [9]), now: 0)
        }
        var other = claims
        other["u"] = "M-9"
        #expect(throws: PushNotification.Refusal.unknownMechanism) {
            try phone.receive(messageId: "A:2", jwt: Self.message(other), now: 0)
        }
        #expect(throws: PushNotification.Refusal.malformed) { try phone.receive(messageId: "A:3", jwt: "x", now: 0) }
        #expect(phone.notifications.isEmpty)
        try phone.receive(messageId: "A:4", jwt: Self.message(claims), now: 0)
        let kept = try #require(phone.notifications.first)
        #expect(kept.numbers == [12, 34, 56])
        #expect(kept.sentAt == 1000 && kept.expiresAt == 1120)
        #expect(kept.summaryJSON["challenge"] == nil)
        let answer = try #require(phone.answer(notification: "A:4", approve: true, challengeResponse: "34"))
        let jwt = try JWT.verify(answer.body["jwt"]?.stringValue ?? "", key: Self.secret)
        #expect(jwt.claims["challengeResponse"] == "34")
        #expect(jwt.claims["deny"] == nil)
        #expect(answer.cookie == "amlbcookie=01")
        let denial = try #require(phone.answer(notification: "A:4", approve: false, challengeResponse: nil))
        #expect(try JWT.verify(denial.body["jwt"]?.stringValue ?? "", key: Self.secret).claims["deny"] == true)
        phone.markAnswered(notification: "A:4", approved: false, now: 10)
        #expect(phone.answer(notification: "A:4", approve: true, challengeResponse: "34") == nil, "answered once")
        phone.dropExpiredNotifications(now: 1120)
        #expect(phone.notifications.map(\.respondedAt) == [10], "an answered one stays in the history")
        try phone.receive(messageId: "A:5", jwt: Self.message(claims), now: 0)
        phone.dropExpiredNotifications(now: 1120)
        #expect(phone.notifications.map(\.id) == ["A:4"], "an unanswered one leaves when its time is up")
    }

    @Test func pushRecordsSurviveSavedState() throws {
        var phone = try Self.phoneWithMechanism()
        try phone.receive(
            messageId: "A:1",
            jwt: Self.message(["u": "M-1", "c": .string(Base64.encode(Self.challenge)), "m": "hi", "i": "0", "t": "9"]),
            now: 0)
        let phones = Phones(random: SeededRandomSource(seed: 1))
        try phones.restoreState([StateEntry(["ada"], phone.stateJSON)], rollingBack: false)
        #expect(phones.phone(id: "ada") == phone)
    }
}
