import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's Device Binding, Device Binding Storage and Device Signing Verifier nodes, on a virtual
/// clock: the callbacks each sends, the JWS each verifies (made here with a P-256 key, as an SDK
/// makes it) and where every outcome leads. Outcomes other than success go to a Message node
/// ("marker" and friends) whose text names the outcome.
struct AMDeviceBindingTests {
    typealias T = AMMoreNodesTests
    typealias Node = (id: String, type: String, connections: JSONObject, config: JSONObject)

    static let appId = "com.example.app"
    static let demoId = "id=demo,ou=user,o=alpha,ou=services,ou=am-config"

    /// A Message node that shows which outcome was taken, then fails.
    static func shows(_ outcome: String) -> Node {
        (outcome, "MessageNode", ["true": T.failure, "false": T.failure], ["message": .string(outcome)])
    }

    static func outcomeShown(_ reply: ServerReply) -> String? {
        reply.body["callbacks"]?[0]?["output"]?[0]?["value"]?.stringValue
    }

    /// The reason the journey gives once the marker showing an outcome is answered (every marker
    /// leads to failure): what `emulator.lastFailure` reports.
    static func reasonAfter(_ h: Harness, _ marker: ServerReply) -> JourneyFailure.Reason? {
        guard h.submit(marker.body, [:]).status == 401 else { return nil }
        return h.am.lastFailure?.reason
    }

    static let bindOutcomes = ["failure", "exceedDeviceLimit", "Abort", "Timeout", "Unsupported"]
    static let signOutcomes = [
        "failure", "noDeviceRegistered", "keyNotFound", "Abort", "Timeout", "ClientNotRegistered",
    ]

    static func bindNode(_ config: JSONObject = [:], success: JSONValue = T.success) -> Node {
        var settings: JSONObject = ["applicationIds": [.string(appId)], "authenticationType": "NONE"]
        for member in config.members { settings[member.key] = member.value }
        var connections: JSONObject = ["success": success]
        for outcome in bindOutcomes where outcome != "exceedDeviceLimit" || config["maxSavedDevices"] != nil {
            connections[outcome] = .string(outcome)
        }
        return ("n", "DeviceBindingNode", connections, settings)
    }

    static func signNode(id: String = "v", _ config: JSONObject = [:]) -> Node {
        var settings: JSONObject = ["applicationIds": [.string(appId)]]
        for member in config.members { settings[member.key] = member.value }
        var connections: JSONObject = ["success": T.success]
        for outcome in signOutcomes { connections[outcome] = .string("s-" + outcome) }
        return (id, "DeviceSigningVerifierNode", connections, settings)
    }

    static var markers: [Node] {
        (bindOutcomes.map(shows) + signOutcomes.map { shows("s-" + $0) })
    }

    static func harness(_ nodes: [Node]) throws -> Harness { try T.harness(nodes + markers) }

    /// An app's key: signs JWSs as the SDKs do.
    struct AppKey {
        var key = try! P256.PrivateKey(rawRepresentation: [UInt8](repeating: 7, count: 32))
        var kid = "5a1d3c8e-0000-4000-8000-000000000001"

        var jwk: JSONObject {
            [
                "kty": "EC", "kid": .string(kid), "use": "sig", "alg": "ES256", "crv": "P-256",
                "x": .string(Base64URL.encode(key.publicKey.xBytes)),
                "y": .string(Base64URL.encode(key.publicKey.yBytes)),
            ]
        }

        func claims(_ challenge: String, now: Double, sub: String = demoId, iss: String = appId) -> JSONObject {
            [
                "sub": .string(sub), "challenge": .string(challenge), "exp": .int(Int64(now) + 60),
                "iat": .int(Int64(now)), "nbf": .int(Int64(now)), "iss": .string(iss),
            ]
        }

        func jws(_ claims: JSONObject, embed: Bool, alg: String = "ES256", signer: P256.PrivateKey? = nil) -> String {
            var header: JSONObject = ["alg": .string(alg), "kid": .string(kid), "typ": "JWS"]
            if embed { header["jwk"] = .object(jwk) }
            let input =
                Base64URL.encode(JSONWriter().bytes(.object(header))) + "."
                + Base64URL.encode(JSONWriter().bytes(.object(claims)))
            let signature = (signer ?? key).signature(for: Array(input.utf8)).rawRepresentation
            return input + "." + (alg == "none" ? "" : Base64URL.encode(signature))
        }
    }

    static func output(_ step: JSONValue, _ name: String) -> JSONValue? { T.output(step, 0, name) }
    static func challenge(_ step: JSONValue) -> String { output(step, "challenge")?.stringValue ?? "" }

    static func bindAnswer(
        _ jws: String, deviceId: String = "device-1", name: String = "Ada's phone"
    ) -> [String: JSONValue] {
        ["IDToken1jws": .string(jws), "IDToken1deviceName": .string(name), "IDToken1deviceId": .string(deviceId)]
    }

    /// Binds demo's AppKey through "T" (a Device Binding node alone).
    static func bound(_ h: Harness, _ app: AppKey = AppKey()) -> ServerReply {
        let step = T.begin(h).body
        return h.submit(step, bindAnswer(app.jws(app.claims(challenge(step), now: h.clock.now), embed: true)))
    }

    // MARK: Device Binding

    @Test func theBindingCallbackCarriesTheUserTheTypeAndAChallenge() throws {
        let h = try Self.harness([Self.bindNode(["authenticationType": "APPLICATION_PIN", "timeout": 30])])
        let step = T.begin(h).body
        #expect(T.types(step) == ["DeviceBindingCallback"])
        #expect(Self.output(step, "userId") == .string(Self.demoId))
        #expect(Self.output(step, "username") == "demo")
        #expect(Self.output(step, "authenticationType") == "APPLICATION_PIN")
        #expect(Self.output(step, "title") == "Authentication required")
        #expect(Self.output(step, "subtitle") == "Cryptography device binding")
        #expect(Self.output(step, "description") == "Please complete with biometric to proceed")
        #expect(Self.output(step, "timeout") == 30)
        #expect(Self.output(step, "attestation") == false)
        let challenge = Self.challenge(step)
        #expect(challenge.count == 44 && challenge.hasSuffix("="), "32 bytes, standard base64")
        let inputs = step["callbacks"]?[0]?["input"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(inputs == ["IDToken1jws", "IDToken1deviceName", "IDToken1deviceId", "IDToken1clientError"])
    }

    @Test func aSignedJWSBindsTheKeyAsTheUsersDevice() throws {
        let h = try Self.harness([Self.bindNode()])
        #expect(Self.bound(h).body["tokenId"] != nil)
        let device = try #require(h.am.users.find(username: "demo")?.devices.binding.first)
        #expect(device.uuid == AppKey().kid)
        #expect(device.deviceName == "Ada's phone")
        #expect(device.deviceId == "device-1")
        #expect(device.key == AppKey().jwk)
        #expect(device.record.createdDate == h.clock.now)
        #expect(device.restJSON["key"] == .object(AppKey().jwk))
    }

    @Test func aDeviceWithoutANameGetsAMsDefault() throws {
        let h = try Self.harness([Self.bindNode()])
        let step = T.begin(h).body
        let app = AppKey()
        let jws = app.jws(app.claims(Self.challenge(step), now: h.clock.now), embed: true)
        #expect(h.submit(step, Self.bindAnswer(jws, name: "")).body["tokenId"] != nil)
        #expect(h.am.users.find(username: "demo")?.devices.binding.first?.deviceName == "Device Name")
    }

    @Test func everyBadJWSIsFailureAndStoresNothing() throws {
        let h = try Self.harness([Self.bindNode()])
        let app = AppKey()
        let other = try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 9, count: 32))
        let cases: [(String, (String, Double) -> String)] = [
            ("wrong challenge", { _, now in app.jws(app.claims("not-it", now: now), embed: true) }),
            ("signed by another key", { c, now in app.jws(app.claims(c, now: now), embed: true, signer: other) }),
            ("alg none", { c, now in app.jws(app.claims(c, now: now), embed: true, alg: "none") }),
            ("alg RS256", { c, now in app.jws(app.claims(c, now: now), embed: true, alg: "RS256") }),
            ("no jwk", { c, now in app.jws(app.claims(c, now: now), embed: false) }),
            ("expired", { c, now in app.jws(app.claims(c, now: now - 200), embed: true) }),
            ("not yet valid", { c, now in app.jws(app.claims(c, now: now + 200), embed: true) }),
            ("another app", { c, now in app.jws(app.claims(c, now: now, iss: "com.other"), embed: true) }),
            ("not a JWS", { _, _ in "a.b" }),
            ("garbage", { _, _ in "!!!.???.###" }),
        ]
        let checks = [
            "claim", "signature", "algorithm", "algorithm", "key", "claim", "claim", "claim", "jws", "jws",
        ]
        for ((name, make), check) in zip(cases, checks) {
            let step = T.begin(h).body
            let reply = h.submit(step, Self.bindAnswer(make(Self.challenge(step), h.clock.now)))
            #expect(Self.outcomeShown(reply) == "failure", "\(name)")
            let reason = Self.reasonAfter(h, reply)
            #expect(reason?.code == "binding_refused", "\(name)")
            #expect(reason?.fields["check"]?.stringValue == check, "\(name)")
        }
        let step = T.begin(h).body
        let late = h.submit(
            step, Self.bindAnswer(app.jws(app.claims(Self.challenge(step), now: h.clock.now - 200), embed: true)))
        #expect(Self.reasonAfter(h, late)?.fields["claim"] == "exp")
        #expect(h.am.users.find(username: "demo")?.devices.binding.isEmpty == true)
    }

    @Test func aJWSWithoutADeviceIdAsksAgain() throws {
        let h = try Self.harness([Self.bindNode()])
        let step = T.begin(h).body
        let app = AppKey()
        let reply = h.submit(
            step,
            Self.bindAnswer(app.jws(app.claims(Self.challenge(step), now: h.clock.now), embed: true), deviceId: ""))
        #expect(T.types(reply.body) == ["DeviceBindingCallback"])
        #expect(Self.challenge(reply.body) != Self.challenge(step), "a fresh challenge")
    }

    @Test func clientErrorsAreTheirOutcomes() throws {
        let h = try Self.harness([Self.bindNode()])
        for error in ["Abort", "Timeout", "Unsupported"] {
            let reply = h.submit(T.begin(h).body, ["IDToken1clientError": .string(error)])
            #expect(Self.outcomeShown(reply) == error)
            #expect(Self.reasonAfter(h, reply)?.fields["error"]?.stringValue == error)
        }
        #expect(T.begin(h).status == 200)
        #expect(h.submit(T.begin(h).body, ["IDToken1clientError": "Whatever"]).status == 401, "not an outcome: AM errs")
    }

    @Test func theDeviceLimitIsCheckedBeforeTheStep() throws {
        let h = try Self.harness([Self.bindNode(["maxSavedDevices": 1])])
        #expect(Self.bound(h).body["tokenId"] != nil)
        let limited = T.begin(h)
        #expect(Self.outcomeShown(limited) == "exceedDeviceLimit")
        #expect(Self.reasonAfter(h, limited)?.code == "binding_device_limit")
    }

    @Test func noUserOrALockedOneFailsTheJourney() throws {
        let h = try Self.harness([Self.bindNode()])
        #expect(T.begin(h, username: "nobody").status == 401)
        #expect(h.am.lastFailure?.reason?.code == "node_error")
        _ = h.am.users.update(username: "demo") { $0.lock = .init(until: nil) }
        #expect(T.begin(h).status == 401)
    }

    @Test func attestationIsRefusedForAnAndroidKeyAndSkippedForIOS() throws {
        let h = try Self.harness([Self.bindNode(["attestation": true])])
        let app = AppKey()
        var step = T.begin(h).body
        #expect(Self.output(step, "attestation") == true)
        let android = app.jws(app.claims(Self.challenge(step), now: h.clock.now), embed: true)
        #expect(Self.outcomeShown(h.submit(step, Self.bindAnswer(android))) == "failure")
        step = T.begin(h).body
        var claims = app.claims(Self.challenge(step), now: h.clock.now)
        claims["platform"] = "ios"
        #expect(h.submit(step, Self.bindAnswer(app.jws(claims, embed: true))).body["tokenId"] != nil)
    }

    @Test func postponedStorageWaitsForTheStorageNode() throws {
        let h = try Self.harness([
            Self.bindNode(["postponeDeviceProfileStorage": true], success: "store"),
            ("store", "DeviceBindingStorageNode", ["true": T.success, "false": "failure"], [:]),
        ])
        let step = T.begin(h).body
        let app = AppKey()
        let jws = app.jws(app.claims(Self.challenge(step), now: h.clock.now), embed: true)
        #expect(h.submit(step, Self.bindAnswer(jws)).body["tokenId"] != nil)
        #expect(h.am.users.find(username: "demo")?.devices.binding.count == 1)
        let alone = try T.harness([("n", "DeviceBindingStorageNode", ["true": T.success, "false": "marker"], [:])])
        #expect(T.reachedMarker(T.begin(alone)), "nothing in transient state")
    }

    @Test func aBadSettingStopsTheLoad() {
        do {
            _ = try AMExports.load([
                AMExports.tree(
                    "T", entry: "n",
                    [("n", "DeviceBindingNode", ["success": T.success], ["authenticationType": "FACE"])])
            ])
            Issue.record("loaded")
        } catch {
            #expect(error.description.contains("\"authenticationType\" must be one of BIOMETRIC_ONLY"))
        }
    }

    // MARK: Device Signing Verifier

    /// "T": bind (n), then sign (v).
    static func bindThenSign(_ config: JSONObject = [:]) throws -> Harness {
        try harness([bindNode(success: "v"), signNode(config)])
    }

    static func sign(_ h: Harness, _ step: JSONValue, _ app: AppKey = AppKey(), sub: String = demoId) -> ServerReply {
        h.submit(
            step,
            ["IDToken1jws": .string(app.jws(app.claims(challenge(step), now: h.clock.now, sub: sub), embed: false))])
    }

    @Test func theBoundKeySignsIn() throws {
        let h = try Self.bindThenSign()
        let signing = Self.bound(h).body
        #expect(T.types(signing) == ["DeviceSigningVerifierCallback"])
        #expect(Self.output(signing, "userId") == .string(Self.demoId))
        let inputs = signing["callbacks"]?[0]?["input"]?.arrayValue?.compactMap { $0["name"]?.stringValue }
        #expect(inputs == ["IDToken1jws", "IDToken1clientError"])
        h.clock.advance(by: 5)
        #expect(Self.sign(h, signing).body["tokenId"] != nil)
        #expect(h.am.users.find(username: "demo")?.devices.binding.first?.record.lastAccessDate == h.clock.now)
    }

    @Test func aUserWithoutDevicesHasNoneRegistered() throws {
        let h = try Self.harness([Self.signNode(id: "n")])
        #expect(Self.outcomeShown(T.begin(h)) == "s-noDeviceRegistered")
    }

    @Test func anUnknownKeyIsKeyNotFoundAndAWrongSignatureFailure() throws {
        let h = try Self.bindThenSign()
        var other = AppKey()
        other.kid = "another-key"
        let unknown = Self.sign(h, Self.bound(h).body, other)
        #expect(Self.outcomeShown(unknown) == "s-keyNotFound")
        #expect(Self.reasonAfter(h, unknown)?.code == "binding_key_not_found")
        var forged = AppKey()
        forged.key = try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 9, count: 32))
        let reply = Self.sign(h, Self.bound(h).body, forged)
        #expect(Self.outcomeShown(reply) == "s-failure")
        let reason = Self.reasonAfter(h, reply)
        #expect(reason?.code == "signing_refused")
        #expect(reason?.fields["check"] == "signature")
    }

    @Test func aStaleOrForeignChallengeIsFailure() throws {
        let h = try Self.bindThenSign()
        let app = AppKey()
        let signing = Self.bound(h).body
        let held = app.jws(app.claims(Self.challenge(signing), now: h.clock.now), embed: false)
        h.clock.advance(by: 60 + 30 + 1)
        let late = h.submit(signing, ["IDToken1jws": .string(held)])
        #expect(Self.outcomeShown(late) == "s-failure", "signed, then held past exp and the skew")
        #expect(Self.reasonAfter(h, late)?.fields["claim"] == "exp")
        let step = Self.bound(h).body
        let jws = app.jws(app.claims("another challenge", now: h.clock.now), embed: false)
        #expect(Self.outcomeShown(h.submit(step, ["IDToken1jws": .string(jws)])) == "s-failure")
    }

    @Test func anotherUsersSubjectFailsTheJourneyOrIsCapturedAsFailure() throws {
        let h = try Self.bindThenSign()
        let other = "id=ada,ou=user,o=alpha,ou=services,ou=am-config"
        #expect(Self.sign(h, Self.bound(h).body, sub: other).status == 401)
        #expect(h.am.lastFailure?.reason?.code == "signing_refused")
        #expect(h.am.lastFailure?.reason?.fields["failure"] == "INVALID_SUBJECT")
        let captured = try Self.bindThenSign(["captureFailure": true])
        #expect(Self.outcomeShown(Self.sign(captured, Self.bound(captured).body, sub: other)) == "s-failure")
    }

    @Test func signingClientErrorsAreTheirOutcomes() throws {
        let h = try Self.bindThenSign()
        for error in ["Abort", "Timeout", "ClientNotRegistered"] {
            let reply = h.submit(Self.bound(h).body, ["IDToken1clientError": .string(error)])
            #expect(Self.outcomeShown(reply) == "s-" + error)
        }
    }

    @Test func usernamelessSigningFindsTheUserBySubject() throws {
        let bind = try Self.harness([Self.bindNode()])
        #expect(Self.bound(bind).body["tokenId"] != nil)
        // A second journey with no username before the verifier: the same server.
        for journey in try AMExports.load([AMExports.tree("U", entry: "v", [Self.signNode()] + Self.markers)]) {
            bind.am.add(journey: journey)
        }
        let step = bind.start("U").body
        #expect(Self.output(step, "userId") == "")
        let reply = Self.sign(bind, step)
        #expect(reply.body["tokenId"] != nil)
        #expect(
            bind.am.sessionInfo(ssoToken: reply.body["tokenId"]?.stringValue ?? "", refresh: false).body["username"]
                == "demo")
    }

    @Test func aSharedStateValueCanBeTheChallenge() throws {
        let h = try Self.bindThenSign(["challenge": false, "sharedStateAttribute": "username"])
        let signing = Self.bound(h).body
        #expect(Self.challenge(signing) == "demo")
        #expect(Self.sign(h, signing).body["tokenId"] != nil)
    }

    @Test func aBoundDeviceIsSavedWithTheUserAndDamageIsNamed() throws {
        let h = try Self.harness([Self.bindNode()])
        #expect(Self.bound(h).body["tokenId"] != nil)
        let restored = Harness(seed: 3)
        try restored.am.restoreState(h.am.stateEntries, rollingBack: false)
        #expect(restored.am.users.find(username: "demo")?.devices == h.am.users.find(username: "demo")?.devices)
        let device = try #require(h.am.users.find(username: "demo")?.devices.binding.first)
        var broken = device.stateJSON.objectValue ?? [:]
        broken["key"] = "not a JWK"
        #expect(throws: StateError("device.key: expected an object, found string")) {
            _ = try BoundDeviceProfile(state: StateReader(.object(broken), path: "device"))
        }
    }

    @Test func anotherUsersKeyOrAnUnsignedJWSDoesNotSignIn() throws {
        let h = try Self.bindThenSign()
        _ = try h.am.users.add(username: "ada", password: "Ch4ng3it!", attributes: [:])
        var adas = AppKey()
        adas.kid = "adas-key"
        adas.key = try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 5, count: 32))
        _ = h.am.users.update(username: "ada") {
            $0.devices.binding = [
                BoundDeviceProfile(
                    record: DeviceRecord(uuid: "adas-key", deviceName: "Ada's", createdDate: 0), deviceId: "a",
                    key: adas.jwk)
            ]
        }
        // demo's journey, ada's key claiming to be demo: not one of demo's devices.
        #expect(Self.outcomeShown(Self.sign(h, Self.bound(h).body, adas)) == "s-keyNotFound")
        let signing = Self.bound(h).body
        h.clock.advance(by: 5)
        let app = AppKey()
        let unsigned = app.jws(app.claims(Self.challenge(signing), now: h.clock.now), embed: false, alg: "none")
        #expect(Self.outcomeShown(h.submit(signing, ["IDToken1jws": .string(unsigned)])) == "s-failure")
        let device = try #require(h.am.users.find(username: "demo")?.devices.binding.first)
        #expect(device.record.lastAccessDate == device.record.createdDate, "no sign-in recorded")
    }
}
