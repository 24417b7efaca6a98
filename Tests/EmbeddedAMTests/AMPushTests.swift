import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's push nodes run as AM runs them, answered by a hand-written authenticator (HMAC-SHA256
/// JWTs from Core, nothing of the emulated phone) through the server's push endpoint.
struct AMPushTests {
    typealias T = AMMoreNodesTests
    typealias Nodes = [(id: String, type: String, connections: JSONObject, config: JSONObject)]

    /// Sender → (Wait → Verifier) or (Registration → Sender); the verifier's `WAITING` loops
    /// back to the wait, `EXPIRED` and exits to the marker.
    static func nodes(
        pushType: String = "DEFAULT", timeout: Int = 60, messageTimeout: Int = 120_000, captureFailure: Bool = false,
        generateRecoveryCodes: Bool = true
    ) -> Nodes {
        var sender: JSONObject = [
            "SENT": "wait", "NOT_REGISTERED": "reg", "SKIPPED": T.success,
        ]
        if captureFailure { sender["FAILURE"] = "marker" }
        return [
            (
                "n", "PushAuthenticationSenderNode", sender,
                [
                    "pushType": .string(pushType), "messageTimeout": .int(Int64(messageTimeout)),
                    "captureFailure": .bool(captureFailure), "userMessage": [:], "customPayload": [],
                ]
            ),
            (
                "reg", "PushRegistrationNode",
                ["successOutcome": "n", "failureOutcome": T.failure, "timeoutOutcome": "marker"],
                [
                    "issuer": "Example Bank", "accountName": "USERNAME", "bgColor": "#032b75", "imgUrl": "",
                    "timeout": .int(Int64(timeout)), "generateRecoveryCodes": .bool(generateRecoveryCodes),
                ]
            ),
            ("wait", "PushWaitNode", ["DONE": "verify", "EXITED": "marker"], ["secondsToWait": 5]),
            (
                "verify", "PushResultVerifierNode",
                ["TRUE": T.success, "FALSE": T.failure, "EXPIRED": "marker", "WAITING": "wait"],
                [:]
            ),
        ]
    }

    /// What the tests' authenticator keeps of a registration.
    struct Registration {
        var secret: [UInt8]
        var mechanismUid: String
        var authenticate: String
    }

    final class Inbox {
        var deliveries: [PushDelivery] = []
    }

    static func harness(_ nodes: Nodes = nodes()) throws -> (Harness, Inbox) {
        let h = try T.harness(nodes)
        let inbox = Inbox()
        h.am.onPushNotification = { inbox.deliveries.append($0) }
        return (h, inbox)
    }

    static func uri(_ step: JSONValue) -> String { T.output(step, 2, "value")?.stringValue ?? "" }

    static func jwt(_ claims: JSONObject, secret: [UInt8]) -> String { JWT(claims: claims).signed(key: secret) }

    static func response(secret: [UInt8], challenge: [UInt8]) -> String {
        Base64.encode(HMACSHA256.Key(secret).authenticate(challenge))
    }

    /// Answers the registration QR code as the ForgeRock Authenticator does.
    static func register(
        _ h: Harness, _ uri: String, token: String = "token-1", claims extra: JSONObject = [:]
    ) -> (ServerReply, Registration) {
        let query = PercentEncoding.queryParameters(of: uri)
        let secret = Base64URL.decode(query["s"] ?? "") ?? []
        let challenge = Base64URL.decode(query["c"] ?? "") ?? []
        var claims: JSONObject = [
            "deviceId": .string(token), "deviceName": "Pixel", "deviceType": "android", "communicationType": "gcm",
            "mechanismUid": "mech-1", "response": .string(response(secret: secret, challenge: challenge)),
        ]
        for member in extra.members { claims[member.key] = member.value }
        let reply = h.am.pushMessage(
            .register,
            body: ["messageId": .string(query["m"] ?? ""), "jwt": .string(jwt(claims, secret: secret))])
        let authenticate = String(decoding: Base64URL.decode(query["a"] ?? "") ?? [], as: UTF8.self)
        return (reply, Registration(secret: secret, mechanismUid: "mech-1", authenticate: authenticate))
    }

    /// The notification's claims, verified with the registration's secret as the phone does.
    static func claims(_ delivery: PushDelivery, _ registration: Registration) throws -> JSONObject {
        try JWT.verify(delivery.message, key: registration.secret).claims
    }

    static func answer(
        _ h: Harness, _ delivery: PushDelivery, _ registration: Registration, deny: Bool = false, number: Int? = nil
    ) throws -> ServerReply {
        let challenge = Base64.decode(try claims(delivery, registration)["c"]?.stringValue ?? "") ?? []
        var claims: JSONObject = ["response": .string(response(secret: registration.secret, challenge: challenge))]
        if deny { claims["deny"] = true }
        if let number { claims["challengeResponse"] = .string(String(number)) }
        return h.am.pushMessage(
            .authenticate,
            body: ["messageId": .string(delivery.messageId), "jwt": .string(jwt(claims, secret: registration.secret))])
    }

    /// Registers demo's device through the journey; returns the wait step after it.
    static func registered(_ h: Harness, _ inbox: Inbox) throws -> (JSONValue, Registration) {
        let qr = T.begin(h).body
        let (reply, registration) = register(h, uri(qr))
        #expect(reply.status == 200)
        let wait = h.submit(qr, [:]).body
        return (wait, registration)
    }

    // MARK: registration

    @Test func registrationShowsAMsCallbacksAndTheURI() throws {
        let (h, _) = try Self.harness()
        let step = T.begin(h).body
        #expect(
            T.types(step) == ["TextOutputCallback", "TextOutputCallback", "HiddenValueCallback", "PollingWaitCallback"])
        #expect(T.output(step, 0, "messageType") == "0")
        #expect(T.output(step, 0, "message")?.stringValue?.hasPrefix("Scan the QR code image below") == true)
        #expect(T.output(step, 1, "messageType") == "4")
        #expect(T.output(step, 1, "message")?.stringValue?.contains("pushauth\\x3A\\x2F\\x2Fpush\\x2FExample") == true)
        #expect(T.output(step, 2, "id") == "mfaDeviceRegistration")
        #expect(T.output(step, 3, "waitTime") == "2000")
        let uri = Self.uri(step)
        #expect(
            uri.hasPrefix(
                "pushauth://push/Example%20Bank:demo?l=YW1sYmNvb2tpZT0wMQ&issuer=RXhhbXBsZSBCYW5r&m=REGISTER:"))
        let query = PercentEncoding.queryParameters(of: uri)
        #expect(query.keys.sorted() == ["a", "b", "c", "image", "issuer", "l", "m", "pid", "r", "s", "uid"])
        #expect(Base64URL.decode(query["s"] ?? "")?.count == 32)
        #expect(Base64URL.decode(query["c"] ?? "")?.count == 32)
        #expect(query["b"] == "032b75")
        #expect(
            String(decoding: Base64URL.decode(query["r"] ?? "") ?? [], as: UTF8.self)
                == "http://localhost:8080/am/json/alpha/push/sns/message?_action=register")
    }

    @Test func theAnsweredRegistrationSavesTheDeviceWithRecoveryCodesAndThePushIsSent() throws {
        let (h, inbox) = try Self.harness()
        let (wait, registration) = try Self.registered(h, inbox)
        #expect(T.types(wait) == ["PollingWaitCallback", "ConfirmationCallback"])
        let device = try #require(h.am.users.find(username: "demo")?.devices.push.first)
        #expect(device.mechanismUid == "mech-1")
        #expect(device.deviceId == "token-1")
        #expect(device.deviceType == "android")
        #expect(device.communicationType == "gcm")
        #expect(device.communicationId.hasSuffix("/GCM/authbridge/token-1"))
        #expect(device.deviceName == "Push Device")
        #expect(device.recoveryCodeDigests.count == 10 && device.recoveryCodeDigests.allSatisfy { $0.count == 32 })
        #expect(Base64.decode(device.sharedSecret) == registration.secret)
        #expect(device.restJSON["sharedSecret"] == nil && device.restJSON["recoveryCodes"] == nil)
        let delivery = try #require(inbox.deliveries.last)
        #expect(delivery.deviceId == "token-1")
        #expect(delivery.messageId.hasPrefix("AUTHENTICATE:"))
        let claims = try Self.claims(delivery, registration)
        #expect(claims["u"] == "mech-1")
        #expect(claims["m"] == "Login attempt from demo at Example Bank")
        #expect(claims["k"] == "default")
        #expect(claims["t"] == "120")
        #expect(claims["d"] == "demo")
        #expect(claims["p"] == "{}")
        #expect(claims["n"] == nil)
    }

    @Test func registrationTimesOutAfterItsPollsNotTheClock() throws {
        let (h, _) = try Self.harness(Self.nodes(timeout: 4))
        let qr = T.begin(h).body
        let again = h.submit(qr, [:]).body
        #expect(T.types(again) == T.types(qr), "2000 ms counted of 4000")
        #expect(T.reachedMarker(h.submit(again, [:])), "4000 ms counted: timeoutOutcome")
    }

    @Test func aRegistrationMessagePastTheServicesLifetimeTimesOut() throws {
        let (h, _) = try Self.harness()
        let qr = T.begin(h).body
        h.clock.advance(by: PushService.messageLifetime + 1)
        #expect(T.reachedMarker(h.submit(qr, [:])))
        #expect(Self.register(h, Self.uri(qr)).0.status == 400, "the message is gone")
    }

    // MARK: the endpoint's refusals

    @Test func theEndpointRefusesBadAnswersAndStoresNothing() throws {
        let (h, _) = try Self.harness()
        let qr = T.begin(h).body
        let uri = Self.uri(qr)
        let query = PercentEncoding.queryParameters(of: uri)
        let messageId = query["m"] ?? ""
        let badRequest: JSONValue = ["code": 400, "reason": "Bad Request", "message": "Bad Request"]
        // A wrong key, a wrong response, alg none, an unknown message, no jwt at all.
        let wrongKey = Self.register(h, uri.replacingSecret(with: Base64URL.encode([UInt8](repeating: 7, count: 32))))
        #expect(wrongKey.0 == ServerReply(status: 400, body: badRequest))
        #expect(Self.register(h, uri, claims: ["response": "AAAA"]).0.status == 400)
        let header = Base64URL.encode(Array(#"{"alg":"none","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(#"{"response":"x","deviceId":"t","mechanismUid":"m"}"#.utf8))
        #expect(
            h.am.pushMessage(
                .register, body: ["messageId": .string(messageId), "jwt": .string("\(header).\(payload).")]
            )
            .status == 400)
        #expect(h.am.pushMessage(.register, body: ["messageId": "REGISTER:nope", "jwt": "x.y.z"]).status == 400)
        #expect(h.am.pushMessage(.register, body: ["messageId": .string(messageId)]).status == 400)
        #expect(h.am.pushMessage(.register, body: "not an object").status == 400)
        #expect(T.types(h.submit(qr, [:]).body) == T.types(qr), "nothing was taken: still waiting")
        #expect(h.am.users.find(username: "demo")?.devices.push.isEmpty == true)
    }

    @Test func aReplayedAnswerIsRefused() throws {
        let (h, _) = try Self.harness()
        let qr = T.begin(h).body
        let first = Self.register(h, Self.uri(qr))
        #expect(first.0.status == 200)
        #expect(Self.register(h, Self.uri(qr)).0.status == 400, "already answered")
        _ = h.submit(qr, [:])
        #expect(Self.register(h, Self.uri(qr)).0.status == 400, "taken and deleted")
    }

    // MARK: sender, wait, verifier

    @Test func anApprovedPushSignsIn() throws {
        let (h, inbox) = try Self.harness()
        let (wait, registration) = try Self.registered(h, inbox)
        #expect(T.output(wait, 0, "waitTime") == "5000")
        #expect(T.output(wait, 0, "message") == "Waiting for response...")
        #expect(T.output(wait, 1, "options") == ["Cancel"])
        #expect(T.input(wait, 1) == 100)
        let delivery = try #require(inbox.deliveries.last)
        #expect(try Self.answer(h, delivery, registration).status == 200)
        let early = h.submit(wait, [:]).body
        #expect(T.types(early) == T.types(wait), "before secondsToWait: the wait again")
        h.clock.advance(by: 6)
        let done = h.submit(early, [:])
        #expect(done.body["tokenId"] != nil)
        let device = try #require(h.am.users.find(username: "demo")?.devices.push.first)
        #expect(device.record.lastAccessDate == h.clock.now)
    }

    @Test func aDeniedPushFails() throws {
        let (h, inbox) = try Self.harness()
        let (wait, registration) = try Self.registered(h, inbox)
        #expect(try Self.answer(h, try #require(inbox.deliveries.last), registration, deny: true).status == 200)
        h.clock.advance(by: 6)
        #expect(h.submit(wait, [:]).status == 401)
        #expect(h.am.lastFailure?.reason?.code == "push_denied")
        #expect(h.am.lastFailure?.reason?.message == "the push notification was denied")
    }

    @Test func anUnansweredPushWaitsThenExpiresAfterTheMessageTimeout() throws {
        let (h, inbox) = try Self.harness(Self.nodes(messageTimeout: 20_000))
        var (step, _) = try Self.registered(h, inbox)
        h.clock.advance(by: 6)
        step = h.submit(step, [:]).body
        #expect(T.types(step) == ["PollingWaitCallback", "ConfirmationCallback"], "WAITING: the wait again")
        h.clock.advance(by: 21)
        step = h.submit(step, [:]).body
        h.clock.advance(by: 6)
        #expect(T.reachedMarker(h.submit(step, [:])), "EXPIRED")
    }

    @Test func cancelIsExited() throws {
        let (h, inbox) = try Self.harness()
        let (wait, _) = try Self.registered(h, inbox)
        #expect(T.reachedMarker(h.submit(wait, ["IDToken2": 0])))
    }

    @Test func theNumberChallengeShowsOneNumberAndTheRightOneSignsIn() throws {
        for chooseRight in [true, false] {
            let (h, inbox) = try Self.harness(Self.nodes(pushType: "CHALLENGE"))
            let (wait, registration) = try Self.registered(h, inbox)
            #expect(T.types(wait) == ["PollingWaitCallback", "HiddenValueCallback", "ConfirmationCallback"])
            let shown = try #require(T.output(wait, 1, "value")?.stringValue)
            #expect(T.output(wait, 1, "id") == "pushChallengeNumber")
            #expect(
                T.output(wait, 0, "message")?.stringValue
                    == "Tap the number [\(shown)] on the Push Notification to continue.")
            let delivery = try #require(inbox.deliveries.last)
            let claims = try Self.claims(delivery, registration)
            #expect(claims["k"] == "challenge")
            let numbers = (claims["n"]?.stringValue ?? "").split(separator: ",").compactMap { Int($0) }
            #expect(numbers.count == 3 && numbers == numbers.sorted() && Set(numbers).count == 3)
            #expect(numbers.allSatisfy { (10...99).contains($0) })
            let right = try #require(Int(shown))
            #expect(numbers.contains(right))
            let chosen = chooseRight ? right : try #require(numbers.first { $0 != right })
            #expect(try Self.answer(h, delivery, registration, number: chosen).status == 200)
            h.clock.advance(by: 6)
            let reply = h.submit(wait, [:])
            #expect((reply.status == 200) == chooseRight)
        }
    }

    @Test func theSenderSkipsAUserWhoOptedOutAndASenderWithoutSkipSendsNoOneUnregistered() throws {
        let (h, _) = try Self.harness()
        _ = h.am.users.update(username: "demo") { $0.attributes["push2fa"] = "1" }
        #expect(T.begin(h).body["tokenId"] != nil, "SKIPPED")
        let mandatory = try T.harness([
            ("n", "PushAuthenticationSenderNode", ["NOT_REGISTERED": "marker"], ["mandatory": true])
        ])
        _ = mandatory.am.users.update(username: "demo") { $0.attributes["push2fa"] = "1" }
        #expect(T.reachedMarker(T.begin(mandatory)), "mandatory: no SKIPPED, and no device is NOT_REGISTERED")
    }

    /// A device on demo's profile, as a registration leaves it.
    static func giveDevice(_ h: Harness) -> Registration {
        let secret = [UInt8](repeating: 9, count: 32)
        _ = h.am.users.update(username: "demo") {
            $0.devices.push.append(
                PushDeviceProfile(
                    record: DeviceRecord(uuid: "d-1", deviceName: "Push Device", createdDate: 0),
                    sharedSecret: Base64.encode(secret), issuer: "ForgeRock", mechanismUid: "mech-1", deviceId: "tok",
                    communicationId: "arn", communicationType: "gcm", deviceType: "android"))
            $0.attributes["push2fa"] = "2"
        }
        return Registration(secret: secret, mechanismUid: "mech-1", authenticate: "")
    }

    @Test func aSecondPushInOneJourneyIsTheSendersFailure() throws {
        for capture in [true, false] {
            let h = try T.harness([
                ("n", "PushAuthenticationSenderNode", ["SENT": "again", "NOT_REGISTERED": T.failure], [:]),
                (
                    "again", "PushAuthenticationSenderNode",
                    capture
                        ? ["SENT": T.success, "NOT_REGISTERED": T.failure, "FAILURE": "marker"]
                        : ["SENT": T.success, "NOT_REGISTERED": T.failure],
                    ["captureFailure": .bool(capture)]
                ),
            ])
            _ = Self.giveDevice(h)
            let reply = T.begin(h)
            #expect(capture ? T.reachedMarker(reply) : reply.status == 401)
        }
    }

    @Test func aUserWhoAlreadyHasADevicePassesRegistrationAtOnce() throws {
        let h = try T.harness([
            (
                "n", "PushRegistrationNode",
                ["successOutcome": T.success, "failureOutcome": T.failure, "timeoutOutcome": "marker"], [:]
            )
        ])
        _ = Self.giveDevice(h)
        #expect(T.begin(h).body["tokenId"] != nil)
    }

    @Test func aBiometricPushSaysSoAndIsApprovedLikeADefaultOne() throws {
        let (h, inbox) = try Self.harness(Self.nodes(pushType: "BIOMETRIC"))
        let (wait, registration) = try Self.registered(h, inbox)
        let delivery = try #require(inbox.deliveries.last)
        #expect(try Self.claims(delivery, registration)["k"] == "biometric")
        #expect(delivery.pushType == "biometric")
        #expect(try Self.answer(h, delivery, registration).status == 200)
        h.clock.advance(by: 6)
        #expect(h.submit(wait, [:]).body["tokenId"] != nil)
    }

    @Test func theVerifierWithoutAPushFailsTheJourney() throws {
        let h = try T.harness([
            (
                "n", "PushResultVerifierNode",
                ["TRUE": T.success, "FALSE": "marker", "EXPIRED": "marker", "WAITING": "marker"], [:]
            )
        ])
        #expect(T.begin(h).status == 401)
    }

    @Test func settingsAreChecked() throws {
        #expect(throws: JourneyImport.Failure.self) {
            _ = try AMExports.load([
                AMExports.tree("X", entry: "n", [("n", "PushAuthenticationSenderNode", [:], ["pushType": "LOUD"])])
            ])
        }
        #expect(throws: JourneyImport.Failure.self) {
            _ = try AMExports.load([
                AMExports.tree("X", entry: "n", [("n", "PushRegistrationNode", [:], ["accountName": "NICKNAME"])])
            ])
        }
    }
}

extension String {
    /// The URI with another `s` parameter.
    fileprivate func replacingSecret(with secret: String) -> String {
        let parts = split(separator: "&", omittingEmptySubsequences: false).map { part -> String in
            part.hasPrefix("s=") ? "s=" + secret : String(part)
        }
        return parts.joined(separator: "&")
    }
}
