import AuthBridgeCore
import Testing

@testable import EmulatedDevice

/// The successor SDKs' binding on the phone (`BindingCeremony`): the Android key and JWS, PIN
/// prompts asked of the app and answered, and an Android key with its PIN saved and restored.
@Suite struct BindingCeremonyTests {
    static func request(_ type: String) -> BindingRequest {
        var request = BindingRequest(
            userId: BindingKeyTests.ada, username: "ada", authenticationType: type, challenge: "c1", timeout: 60)
        request.title = "Bind"
        return request
    }

    static func parts(_ jws: String) throws -> (header: JSONObject, claims: JSONObject) {
        let parts = jws.split(separator: ".").map(String.init)
        func object(_ text: String) throws -> JSONObject {
            try JSONParser.parse(try #require(Base64URL.decode(text))).objectValue ?? [:]
        }
        return (try object(parts[0]), try object(parts[1]))
    }

    @Test func androidBindsAnRSAKeyAndSignsAsItsSDKDoes() throws {
        var phone = Phone(id: "app", owner: "", deviceToken: "t")
        var options = BindingCeremony.Options(style: .pingAndroid)
        options.hash = .sha256
        var ceremony = BindingCeremony(.bind(Self.request("NONE"), deviceName: "Pixel"), options: options)
        guard
            case .finished(.success(let signed)) = ceremony.start(
                on: &phone, now: 1000, random: SeededRandomSource(seed: 4))
        else {
            Issue.record("the bind did not finish")
            return
        }
        #expect(signed.deviceName == "Pixel")
        let (header, claims) = try Self.parts(signed.jws)
        #expect(header["alg"] == "RS256" && header["typ"] == nil)
        #expect(header["jwk"]?["kty"] == "RSA" && header["jwk"]?["alg"] == "RS256")
        #expect(claims["platform"] == "android" && claims["android-version"] == .int(BindingStyle.androidVersion))
        #expect(claims["exp"] == 1060 && claims["sub"] == .string(BindingKeyTests.ada))
        let key = try #require(phone.bindingKeys.first)
        let jwk = try JWK(json: try #require(header["jwk"]?.objectValue))
        #expect(throws: Never.self) {
            try JWS.verify(signed.jws, allowed: [.rs256], key: JWS.VerificationKey(jwk.key))
        }
        #expect(key.listedId == Base64URL.encode(SHA256.hash(Array(BindingKeyTests.ada.utf8))))

        // The saved key (its primes, style and storage) comes back the same.
        let restored = try BindingKey(state: StateReader(key.stateJSON, path: "key"))
        #expect(restored == key)
    }

    @Test func iOSAsksTheAppForThePinTwiceAndSignsOnlyWithTheRightOne() throws {
        var phone = Phone(id: "app", owner: "", deviceToken: "t")
        var options = BindingCeremony.Options(style: .pingIOS)
        options.appCollectsPin = true
        options.pinSubtitle = "Your PIN"
        let random = SeededRandomSource(seed: 4)
        var bind = BindingCeremony(.bind(Self.request("APPLICATION_PIN"), deviceName: nil), options: options)
        let prompt = BindingCeremony.Prompt.pin(.init(title: "Bind", subtitle: "Your PIN", description: ""))
        #expect(bind.start(on: &phone, now: 1, random: random) == .prompt(prompt))
        #expect(bind.answer("2468", on: &phone, now: 1, random: random) == .prompt(prompt))
        guard case .finished(.success) = bind.answer("2468", on: &phone, now: 1, random: random) else {
            Issue.record("the bind did not finish")
            return
        }
        options.pinRetry = 2
        var sign = BindingCeremony(
            .sign(
                userId: "", challenge: "c2", timeout: 30, prompt: .init(title: "Sign", subtitle: "", description: "")),
            options: options)
        #expect(sign.start(on: &phone, now: 2, random: random) != .finished(.failure(.notRegistered)))
        #expect(sign.answer("0000", on: &phone, now: 2, random: random) != .finished(.failure(.wrongPin)))
        #expect(sign.answer("1111", on: &phone, now: 2, random: random) == .finished(.failure(.wrongPin)))
        #expect(BindingCeremony.Failure.wrongPin.clientError == "Abort")
        // A cancelled registration PIN leaves no key, and the user's old one is gone too.
        var again = BindingCeremony(.bind(Self.request("APPLICATION_PIN"), deviceName: nil), options: options)
        _ = again.start(on: &phone, now: 3, random: random)
        #expect(
            again.answer(nil, timedOut: true, on: &phone, now: 3, random: random)
                == .finished(.failure(.pinCancelled(.registration, timedOut: true))))
        #expect(phone.bindingKeys.isEmpty)
    }

    @Test func reservedCustomClaimsAreRefusedBeforeAnyPrompt() {
        var phone = Phone(id: "app", owner: "", deviceToken: "t")
        var options = BindingCeremony.Options(style: .pingAndroid)
        options.claims = ["iss": "me"]
        var sign = BindingCeremony(
            .sign(userId: "", challenge: "c", timeout: 30, prompt: .init(title: "", subtitle: "", description: "")),
            options: options)
        #expect(
            sign.start(on: &phone, now: 1, random: SeededRandomSource(seed: 1)) == .finished(.failure(.reservedClaims)))
    }
}
