import AuthBridgeCore
import Testing

@testable import EmulatedDevice

/// The phone's device-binding keys: what a binding and a signing callback get back, how queued
/// prompt answers refuse, and what is saved and shown.
@Suite struct BindingKeyTests {
    static let ada = "id=ada,ou=user,o=alpha,ou=services,ou=am-config"

    static func request(_ type: String = "BIOMETRIC_ONLY", challenge: String = "c1") -> BindingRequest {
        BindingRequest(userId: ada, username: "ada", authenticationType: type, challenge: challenge, timeout: 60)
    }

    /// The JWS's header and claims, and whether `key` signed it.
    static func read(_ jws: String, key: JSONObject) throws -> (header: JSONObject, claims: JSONObject, valid: Bool) {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        #expect(parts.count == 3)
        func bytes(_ text: String?) throws -> [UInt8] { try #require(text.flatMap(Base64URL.decode)) }
        let header = try JSONParser.parse(try bytes(parts[0])).objectValue ?? [:]
        let claims = try JSONParser.parse(try bytes(parts[1])).objectValue ?? [:]
        let publicKey = try P256.PublicKey(x: try bytes(key["x"]?.stringValue), y: try bytes(key["y"]?.stringValue))
        let signature = try P256.Signature(rawRepresentation: try bytes(parts[2]))
        return (header, claims, publicKey.isValidSignature(signature, for: Array((parts[0] + "." + parts[1]).utf8)))
    }

    @Test func bindingMakesAKeyAndSignsTheChallengeWithTheKeyInTheHeader() throws {
        let random = SeededRandomSource(seed: 3)
        var phone = Phone(id: "ada", owner: "ada", deviceToken: "t")
        guard case .signed(let jws, let name, let deviceId) = phone.bind(Self.request(), now: 1000, random: random)
        else {
            Issue.record("refused")
            return
        }
        #expect(name == "Emulated phone ada")
        #expect(deviceId.count == 40)
        let key = try #require(phone.bindingKeys.first)
        let (header, claims, valid) = try Self.read(jws, key: key.publicJWK)
        #expect(valid)
        #expect(header["alg"] == "ES256" && header["typ"] == "JWS" && header["kid"] == .string(key.id))
        #expect(header["jwk"] == .object(key.publicJWK))
        #expect(claims["sub"] == .string(Self.ada))
        #expect(claims["challenge"] == "c1")
        #expect(claims["exp"] == 1060 && claims["iat"] == 1000 && claims["nbf"] == 1000)
        #expect(claims["platform"] == "ios" && claims["iss"] == .string(BindingKey.applicationId))
    }

    @Test func signingUsesTheUsersKeyWithoutTheJWK() throws {
        let random = SeededRandomSource(seed: 3)
        var phone = Phone(id: "ada", owner: "ada", deviceToken: "t")
        _ = phone.bind(Self.request("NONE"), now: 1000, random: random)
        guard case .signed(let jws, _, _) = phone.sign(userId: Self.ada, challenge: "c2", timeout: 30, now: 2000)
        else {
            Issue.record("refused")
            return
        }
        let (header, claims, valid) = try Self.read(jws, key: phone.bindingKeys[0].publicJWK)
        #expect(valid)
        #expect(header["jwk"] == nil)
        #expect(claims["challenge"] == "c2" && claims["exp"] == 2030 && claims["platform"] == nil)
        #expect(phone.sign(userId: "", challenge: "c3", timeout: 30, now: 2000) != .clientError("ClientNotRegistered"))
        #expect(
            phone.sign(userId: "id=bob", challenge: "c", timeout: 30, now: 2000) == .clientError("ClientNotRegistered"))
    }

    @Test func queuedPromptAnswersRefuseInTurnAndARefusedBindingKeepsNoKey() {
        let random = SeededRandomSource(seed: 3)
        var phone = Phone(id: "ada", owner: "ada", deviceToken: "t")
        phone.promptAnswers = [.cancel, .timeout, .unsupported]
        #expect(phone.bind(Self.request(), now: 1, random: random) == .clientError("Abort"))
        #expect(phone.bind(Self.request(), now: 1, random: random) == .clientError("Timeout"))
        #expect(phone.bindingKeys.isEmpty)
        #expect(phone.bind(Self.request("NONE"), now: 1, random: random) != .clientError("Unsupported"), "no prompt")
        #expect(phone.promptAnswers == [.unsupported])
        #expect(phone.bind(Self.request("FACE_ID"), now: 1, random: random) == .clientError("Unsupported"))
    }

    @Test func bindingAgainReplacesTheUsersKeyAndKeysCanBeDeleted() {
        let random = SeededRandomSource(seed: 3)
        var phone = Phone(id: "ada", owner: "ada", deviceToken: "t")
        _ = phone.bind(Self.request(), now: 1, random: random)
        let first = phone.bindingKeys[0].id
        _ = phone.bind(Self.request(), now: 2, random: random)
        #expect(phone.bindingKeys.count == 1 && phone.bindingKeys[0].id != first)
        #expect(phone.deleteBindingKeys(id: "nope") == 0)
        #expect(phone.deleteBindingKeys(id: nil) == 1)
        #expect(phone.bindingKeys.isEmpty)
    }

    @Test func keysAndPromptAnswersAreSavedAndTheSummaryHasNoPrivateKey() throws {
        let phones = Phones(random: SeededRandomSource(seed: 7))
        phones.updatePhone(of: "ada") {
            _ = $0.bind(Self.request(), now: 5, random: SeededRandomSource(seed: 1))
            $0.promptAnswers = [.cancel]
        }
        let restored = Phones(random: SeededRandomSource(seed: 1))
        try restored.restoreState(phones.stateEntries, rollingBack: false)
        #expect(restored.all == phones.all)
        let summary = try #require(phones.phone(id: "ada")?.summaryJSON)
        #expect(!JSONWriter.compact(.object(summary)).contains("privateKey"))
        #expect(summary["promptAnswers"] == ["cancel"])
        let bad = StateEntry(
            ["ada"], ["id": "ada", "owner": "ada", "deviceToken": "t", "promptAnswers": [["answer": "shrug"]]])
        #expect(
            throws: StateError(
                "phones.ada.promptAnswers[0].answer: not a prompt answer (approve, cancel, timeout, unsupported)")
        ) {
            try restored.restoreState([bad], rollingBack: false)
        }
    }

    @Test func aCallbackIsAnsweredInItsInputsAndABadOneIsNamed() throws {
        var phone = Phone(id: "ada", owner: "ada", deviceToken: "t")
        let random = SeededRandomSource(seed: 3)
        let callback: JSONObject = [
            "type": "DeviceBindingCallback",
            "output": [
                ["name": "userId", "value": .string(Self.ada)], ["name": "username", "value": "ada"],
                ["name": "authenticationType", "value": "NONE"], ["name": "challenge", "value": "c"],
                ["name": "timeout", "value": .int(Int64.max)],
            ],
            "input": [
                ["name": "IDToken1jws", "value": ""], ["name": "IDToken1deviceName", "value": ""],
                ["name": "IDToken1deviceId", "value": ""], ["name": "IDToken1clientError", "value": ""],
            ],
        ]
        let answered = try phone.answer(bindingCallback: callback, now: 100, random: random)
        let inputs = answered["input"]?.arrayValue?.compactMap { $0["value"]?.stringValue } ?? []
        #expect(inputs.count == 4 && !inputs[0].isEmpty && inputs[1] == "Emulated phone ada" && inputs[3].isEmpty)
        let (_, claims, valid) = try Self.read(inputs[0], key: phone.bindingKeys[0].publicJWK)
        #expect(valid && claims["exp"] == .int(100 + 31_536_000), "a hostile timeout is held to a year")
        var missing = callback
        missing["output"] = [["name": "userId", "value": "x"]]
        #expect(throws: Phone.CallbackError.missingOutput("username")) {
            try phone.answer(bindingCallback: missing, now: 1, random: random)
        }
        var other = callback
        other["type"] = "NameCallback"
        #expect(throws: Phone.CallbackError.notABindingCallback("NameCallback")) {
            try phone.answer(bindingCallback: other, now: 1, random: random)
        }
    }
}
