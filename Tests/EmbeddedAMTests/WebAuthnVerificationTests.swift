import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's WebAuthn nodes verifying what an authenticator sends (W3C Web Authentication Level 2
/// §7.1/§7.2 as ForgeRock/am-external's RegisterFlow and AuthenticationFlow check it), answered
/// by the emulated phone's passkey: each tampering takes AM's outcome and nothing is saved.
struct WebAuthnVerificationTests {
    typealias T = AMMoreNodesTests

    /// Username → Registration → Authentication → success; failure to failure, `error` to the
    /// marker, and each node's other outcomes named by the caller.
    static func harness(registration: JSONObject = [:], authentication: JSONObject = [:]) throws -> Harness {
        var outcomes: JSONObject = ["success": "a", "failure": T.failure, "error": "marker", "unsupported": T.failure]
        if registration["maxSavedDevices"] != nil { outcomes["exceedDeviceLimit"] = "a" }
        return try T.harness([
            ("n", "WebAuthnRegistrationNode", outcomes, registration),
            (
                "a", "WebAuthnAuthenticationNode",
                [
                    "success": T.success, "failure": T.failure, "error": "marker", "unsupported": T.failure,
                    "noDevice": T.failure,
                ], authentication
            ),
        ])
    }

    /// A device for steps that need the user to have one (a key that is never asked to verify).
    static let someDevice = WebAuthnDeviceProfile(
        record: DeviceRecord(uuid: "d1", deviceName: "key", createdDate: 0), credentialId: "AA",
        key: .ec2P256(x: [UInt8](repeating: 1, count: 32), y: [UInt8](repeating: 2, count: 32)), signCount: 0)

    static func metadata(_ step: JSONValue) -> JSONObject { T.output(step, 0, "data")?.objectValue ?? [:] }

    /// The phone answers the step in front of it: registration or authentication by the metadata.
    static func answer(
        _ step: JSONValue, _ phone: inout Phone, origin: String? = "http://localhost:8080", rpId: String = "localhost",
        seed: UInt64 = 7
    ) -> String {
        let data = metadata(step)
        let result =
            data["_action"] == "webauthn_registration"
            ? PasskeyAuthenticator.register(
                data, phone: &phone, origin: origin, defaultRpId: rpId, random: SeededRandomSource(seed: seed))
            : PasskeyAuthenticator.authenticate(data, phone: &phone, origin: origin, defaultRpId: rpId)
        switch result {
        case .success(let value): return value
        case .failure(let failure): return failure.browserOutcome
        }
    }

    static func devices(_ h: Harness) -> [WebAuthnDeviceProfile] {
        h.am.users.find(username: "demo")?.devices.webAuthn ?? []
    }

    @Test func aPasskeyRegistersThenSignsIn() throws {
        let h = try Self.harness()
        var phone = Phone(id: "demo", owner: "demo", deviceToken: "t")
        let register = T.begin(h).body
        let data = Self.metadata(register)
        #expect(data["_type"] == "WebAuthn" && data["userId"] == "ZGVtbw" && data["relyingPartyId"] == "")
        #expect(Base64.decode(data["challenge"]?.stringValue ?? "")?.count == 32, "standard base64, as atob reads it")
        let authenticate = h.submit(register, ["IDToken2": .string(Self.answer(register, &phone))]).body
        #expect(Self.devices(h).count == 1)
        let device = try #require(Self.devices(h).first)
        #expect(device.credentialId == phone.passkeys.first?.id && device.signCount == 0)
        #expect(device.key.algorithm == .es256 && device.recoveryCodeDigests.count == 10)
        #expect(Self.metadata(authenticate)["_allowCredentials"]?.arrayValue?.count == 1)
        let done = h.submit(authenticate, ["IDToken2": .string(Self.answer(authenticate, &phone))])
        #expect(done.body["tokenId"] != nil)
        #expect(Self.devices(h).first?.signCount == 1)
    }

    /// A second journey's step, answered by a phone that already holds demo's passkey.
    static func registered() throws -> (Harness, Phone) {
        let h = try Self.harness()
        var phone = Phone(id: "demo", owner: "demo", deviceToken: "t")
        let register = T.begin(h).body
        _ = h.submit(register, ["IDToken2": .string(Self.answer(register, &phone))])
        return (h, phone)
    }

    /// The authentication step of a new journey for demo (the registration node is skipped by
    /// answering it with nothing: AM sends it again, so a fresh harness journey starts at "a").
    static func authenticationStep(_ h: Harness) throws -> JSONValue {
        let journey = try AMExports.load([
            AMExports.tree(
                "A", entry: "u",
                [
                    ("u", "UsernameCollectorNode", ["outcome": "a"], [:]),
                    (
                        "a", "WebAuthnAuthenticationNode",
                        [
                            "success": T.success, "failure": T.failure, "error": T.failure, "unsupported": T.failure,
                            "noDevice": T.failure,
                        ],
                        [:]
                    ),
                ])
        ])
        for j in journey { h.am.add(journey: j) }
        return h.submit(h.start("A").body, ["IDToken1": "demo"]).body
    }

    @Test func eachTamperingFailsAndMovesNothing() throws {
        let (h, registeredPhone) = try Self.registered()
        func attempt(
            _ change: (String) -> String, origin: String? = "http://localhost:8080", rpId: String = "localhost"
        )
            -> ServerReply
        {
            var phone = registeredPhone
            let step = (try? Self.authenticationStep(h)) ?? .null
            return h.submit(step, ["IDToken2": .string(change(Self.answer(step, &phone, origin: origin, rpId: rpId)))])
        }
        func fields(_ answer: String, _ edit: (inout [String]) -> Void) -> String {
            var parts = answer.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
            edit(&parts)
            return parts.joined(separator: "::")
        }
        #expect(attempt { $0 }.body["tokenId"] != nil, "untouched, it signs in")
        let count = Self.devices(h).first?.signCount
        // A signature byte changed.
        let badSignature = attempt { answer in
            fields(answer) { parts in
                var bytes = parts[2].split(separator: ",").map(String.init)
                bytes[bytes.count - 1] = bytes[bytes.count - 1] == "1" ? "2" : "1"
                parts[2] = bytes.joined(separator: ",")
            }
        }
        #expect(badSignature.status == 401)
        #expect(Self.refusedCheck(h) == "signature")
        #expect(attempt({ $0 }, origin: "https://evil.example").status == 401, "another origin")
        #expect(Self.refusedCheck(h) == "origin")
        #expect(attempt({ $0 }, origin: nil, rpId: "evil.example").status == 401, "another relying party")
        // The phone holds no passkey for that relying party: its ceremony fails, and the reason says so.
        #expect(h.am.lastFailure?.reason?.code == "webauthn_client_error")
        #expect(h.am.lastFailure?.reason?.fields["error"] == "NotAllowedError")
        #expect(attempt { fields($0) { $0[3] = "bm90LWEtY3JlZGVudGlhbA" } }.status == 401, "a credential demo lacks")
        #expect(h.am.lastFailure?.reason?.code == "webauthn_unknown_credential")
        #expect(attempt { fields($0) { $0[1] = "1,2,3" } }.status == 401, "authenticator data cut short")
        #expect(Self.refusedCheck(h) == "authenticatorData")
        #expect(Self.devices(h).first?.signCount == count, "no refused attempt moved the counter")

        // The same answer twice: the challenge was used up by the first.
        var phone = registeredPhone
        let step = try Self.authenticationStep(h)
        let answer = Self.answer(step, &phone)
        let first = h.submit(step, ["IDToken2": .string(answer)])
        #expect(first.body["tokenId"] != nil)
        #expect(h.submit(step, ["IDToken2": .string(answer)]).status == 401, "a replayed answer")
        #expect(h.am.lastFailure?.reason?.code == "auth_id_used")
    }

    /// The check a refused ceremony failed, as `emulator.lastFailure` names it.
    static func refusedCheck(_ h: Harness) -> String? {
        guard let reason = h.am.lastFailure?.reason,
            ["webauthn_assertion_refused", "webauthn_registration_refused"].contains(reason.code)
        else { return nil }
        return reason.fields["check"]?.stringValue
    }

    @Test func registrationRefusalsSaveNothing() throws {
        let h = try Self.harness()
        func attempt(_ change: (String) -> String, origin: String? = "http://localhost:8080") -> ServerReply {
            var phone = Phone(id: "demo", owner: "demo", deviceToken: "t")
            let step = T.begin(h).body
            return h.submit(step, ["IDToken2": .string(change(Self.answer(step, &phone, origin: origin)))])
        }
        #expect(attempt({ $0 }, origin: "https://evil.example").status == 401)
        #expect(Self.refusedCheck(h) == "origin")
        #expect(h.am.lastFailure?.reason?.code == "webauthn_registration_refused")
        #expect(attempt { $0.replacingFirst("webauthn.create", with: "webauthn.get") }.status == 401)
        #expect(Self.refusedCheck(h) == "type")
        #expect(attempt { $0.replacingFirst("\"challenge\":\"", with: "\"challenge\":\"AA") }.status == 401)
        #expect(Self.refusedCheck(h) == "challenge")
        // A CBOR bomb as the attestation object: an array claiming 2³² items, then deep nesting.
        #expect(attempt { "\($0.split(separator: "::")[0])::-102,-1,-1,-1,-1,0::abc" }.status == 401)
        let deep = Array(repeating: "-127", count: 5000).joined(separator: ",")
        #expect(attempt { "\($0.split(separator: "::")[0])::\(deep),0::abc" }.status == 401)
        #expect(Self.devices(h).isEmpty)
        #expect(
            T.reachedMarker(
                attempt { _ in "ERROR::NotAllowedError:The operation either timed out or was not allowed." }))
    }

    @Test func excludedCredentialsAndTheDeviceLimit() throws {
        let h = try Self.harness(registration: ["excludeCredentials": true, "maxSavedDevices": 2])
        var phone = Phone(id: "demo", owner: "demo", deviceToken: "t")
        let first = T.begin(h).body
        _ = h.submit(first, ["IDToken2": .string(Self.answer(first, &phone))])
        let second = T.begin(h).body
        #expect(Self.metadata(second)["_excludeCredentials"]?.arrayValue?.count == 1)
        #expect(Self.metadata(second)["excludeCredentials"]?.stringValue?.contains("new Int8Array([") == true)
        #expect(
            T.reachedMarker(h.submit(second, ["IDToken2": .string(Self.answer(second, &phone))])), "InvalidStateError")
        #expect(h.am.users.find(username: "demo").map { _ in true } == true)
        var other = Phone(id: "demo#2", owner: "demo", deviceToken: "u")
        let third = T.begin(h).body
        _ = h.submit(third, ["IDToken2": .string(Self.answer(third, &other, seed: 9))])
        #expect(Self.devices(h).count == 2)
        #expect(
            T.types(T.begin(h).body) == ["MetadataCallback", "HiddenValueCallback"],
            "over the limit: on to authentication")
    }

    @Test func usernamelessFindsTheUserByTheHandle() throws {
        let (h, registeredPhone) = try Self.registered()
        let journey = try AMExports.load([
            AMExports.tree(
                "U", entry: "a",
                [
                    (
                        "a", "WebAuthnAuthenticationNode",
                        [
                            "success": T.success, "failure": T.failure, "error": T.failure, "unsupported": T.failure,
                            "noDevice": T.failure,
                        ],
                        ["requiresResidentKey": true]
                    )
                ])
        ])
        for j in journey { h.am.add(journey: j) }
        var phone = registeredPhone
        let step = h.start("U").body
        #expect(Self.metadata(step)["_allowCredentials"] == [])
        let done = h.submit(step, ["IDToken2": .string(Self.answer(step, &phone))])
        #expect(done.body["tokenId"] != nil)
    }

    /// The registered device survives `--state-dir` (key, counter, recovery codes), its REST form
    /// holds neither key nor codes, and records of AM's `webauthnDeviceProfiles` attribute move
    /// into the devices when they hold a credential (AuthBridge's old name-and-date records go).
    @Test func theDeviceIsSavedAndTheOldAttributeMigrates() throws {
        let (h, _) = try Self.registered()
        let restored = try EmbeddedAMSavedState.reload(h.am, clock: h.clock)
        let device = try #require(restored.users.find(username: "demo")?.devices.webAuthn.first)
        #expect(device == Self.devices(h).first)
        #expect(device.restJSON["key"] == nil && device.restJSON["recoveryCodes"] == nil)
        #expect(device.restJSON["credentialId"] == .string(device.credentialId))

        _ = h.am.users.update(username: "demo") {
            $0.devices.webAuthn = []
            $0.attributes["webauthnDeviceProfiles"] = [
                ["deviceName": "New Security Key", "registeredAt": 1_767_225_600],
                [
                    "uuid": "d2", "deviceName": "YubiKey", "credentialId": "AQID", "signCount": 4,
                    "createdDate": 1_767_225_600_000, "key": .object(Self.someDevice.key.jwk),
                ],
            ]
        }
        let migrated = try #require(try EmbeddedAMSavedState.reload(h.am, clock: h.clock).users.find(username: "demo"))
        #expect(migrated.attributes["webauthnDeviceProfiles"] == nil)
        #expect(migrated.devices.webAuthn.map(\.uuid) == ["d2"])
        #expect(
            migrated.devices.webAuthn.first?.signCount == 4 && migrated.devices.webAuthn.first?.credentialId == "AQID")
        #expect(migrated.devices.webAuthn.first?.record.createdDate == 1_767_225_600)
    }

    /// A lost passkey: the authentication node's recovery button, then AM's Recovery Code
    /// Collector Decision node spends one of the codes the WebAuthn registration made, once.
    @Test func aRecoveryCodeOfTheWebAuthnDeviceSignsInOnce() throws {
        let h = try T.harness([
            (
                "n", "WebAuthnAuthenticationNode",
                [
                    "success": T.success, "failure": T.failure, "error": T.failure, "unsupported": T.failure,
                    "noDevice": T.failure, "recoveryCode": "r",
                ],
                ["isRecoveryCodeAllowed": true]
            ),
            (
                "r", "RecoveryCodeCollectorDecisionNode", ["true": T.success, "false": T.failure],
                ["recoveryCodeType": "WEB_AUTHN"]
            ),
        ])
        var device = Self.someDevice
        device.recoveryCodeDigests = ["aBcDeFgHiJ", "KlMnOpQrSt"].map(RecoveryCodes.digest)
        _ = h.am.users.update(username: "demo") { $0.devices.webAuthn = [device] }
        func recover(_ code: String) -> ServerReply {
            let step = T.begin(h).body
            #expect(T.types(step) == ["MetadataCallback", "HiddenValueCallback", "ConfirmationCallback"])
            return h.submit(h.submit(step, ["IDToken3": 0]).body, ["IDToken1": .string(code)])
        }
        #expect(recover("aBcDeFgHiJ").body["tokenId"] != nil)
        #expect(recover("aBcDeFgHiJ").status == 401, "spent")
        #expect(Self.devices(h).first?.recoveryCodeDigests.count == 1)
    }
}

extension String {
    fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return String(self[..<range.lowerBound]) + replacement + self[range.upperBound...]
    }
}
