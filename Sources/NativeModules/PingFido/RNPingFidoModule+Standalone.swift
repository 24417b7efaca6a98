import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// `registerCredential(options, config)` / `authenticateCredential(options, config)`: WebAuthn
/// options the app got from its relying party, run on the app's phone.
///
/// - iOS (ping-ios `Fido/Fido.swift`): `challenge` and credential ids are standard base64
///   (`Data(base64Encoded:options: .ignoreUnknownCharacters)`), `user.id` is the string's UTF-8
///   bytes; the result's byte fields are `Data`, which `RNPingCore`'s `JsonBridgeMapper` cannot
///   encode and writes as `String(describing:)`: `"32 bytes"` (`core/ios/Utils/JsonBridgeMapper.swift`).
/// - Android (ping-android `mfa/fido/…/FidoClient.kt`): the options go to Credential Manager as
///   WebAuthn JSON (base64url fields) and the result is its `PublicKeyCredential` JSON.
///
/// A failure rejects `FIDO_REGISTER_ERROR` / `FIDO_AUTHENTICATE_ERROR` with the native text
/// (`FidoFailure`); the standalone methods have no cancelled code.
extension RNPingFidoModule {
    func standalone(_ args: [JSONValue], _ operation: Operation) throws(BridgeError) -> JSONValue {
        let method = operation == .register ? "registerCredential" : "authenticateCredential"
        try Arguments.count(method, args, ["options", "config"])
        let options = try Arguments.object(args, 0, "options")
        _ = try Arguments.object(args, 1, "config")
        device.phones.appPhone()
        let result = device.phones.update(id: Phones.appPhoneId) { phone in
            run(operation, options, phone: &phone)
        }
        switch result ?? .failure(.data("no phone")) {
        case .success(let value): return value
        case .failure(let failure):
            let text = FidoFailure.of(failure, platform: platform, registering: operation == .register)
            throw PingRejection.reject(operation.code, FidoFailure.kind(platform), text.message)
        }
    }

    private func run(
        _ operation: Operation, _ o: JSONObject, phone: inout Phone
    ) -> Result<JSONValue, PasskeyAuthenticator.Failure> {
        let ios = platform == .ios
        func decode(_ text: String) -> [UInt8]? { ios ? Self.lenientBase64(text) : Base64URL.decode(text) }
        guard let text = o["challenge"]?.stringValue, let challenge = decode(text), !challenge.isEmpty else {
            return .failure(.data("Invalid challenge"))
        }
        func ids(_ key: String) -> Set<String> {
            var found: Set<String> = []
            for entry in o[key]?.arrayValue ?? [] {
                if let text = entry["id"]?.stringValue, let bytes = decode(text) {
                    found.insert(Base64URL.encode(bytes))
                }
            }
            return found
        }
        switch operation {
        case .register:
            let rp = o["rp"]?.objectValue ?? [:]
            let user = o["user"]?.objectValue ?? [:]
            guard let rpId = rp["id"]?.stringValue, !rpId.isEmpty, let userId = user["id"]?.stringValue else {
                return .failure(.data("Missing parameters: rp.id, user.id"))
            }
            let handle = platform == .ios ? Array(userId.utf8) : Base64URL.decode(userId)
            guard let handle else { return .failure(.data("user.id is not base64url")) }
            let algorithms = o["pubKeyCredParams"]?.arrayValue?.compactMap { $0["alg"]?.intValue.map { Int($0) } }
            let create = PasskeyAuthenticator.CreateOptions(
                challenge: challenge, rpId: rpId, userHandle: handle, userName: user["name"]?.stringValue ?? "",
                algorithms: algorithms, excluded: ids("excludeCredentials"))
            return PasskeyAuthenticator.create(create, phone: &phone, origin: nil, random: device.random)
                .map(registered)
        case .authenticate:
            guard let rpId = o["rpId"]?.stringValue, !rpId.isEmpty else {
                return .failure(.data("Missing parameters: rpId"))
            }
            let get = PasskeyAuthenticator.GetOptions(
                challenge: challenge, rpId: rpId, allowed: ids("allowCredentials"))
            return PasskeyAuthenticator.get(get, phone: &phone, origin: nil).map(asserted)
        }
    }

    /// iOS `Fido.didComplete` (registration) as the bridge writes it; Android Credential
    /// Manager's `registrationResponseJson`.
    private func registered(_ r: PasskeyAuthenticator.Registration) -> JSONValue {
        switch platform {
        case .ios:
            return [
                "rawId": .string(Self.dataText(r.credentialId)),
                "clientDataJSON": .string(Self.dataText(Array(r.clientDataJSON.utf8))),
                "attestationObject": .string(Self.dataText(r.attestationObject)),
                "authenticatorAttachment": "platform",
            ]
        case .android:
            let id = Base64URL.encode(r.credentialId)
            return [
                "id": .string(id), "rawId": .string(id), "type": "public-key", "authenticatorAttachment": "platform",
                "response": [
                    "clientDataJSON": .string(Base64URL.encode(Array(r.clientDataJSON.utf8))),
                    "attestationObject": .string(Base64URL.encode(r.attestationObject)),
                    "authenticatorData": .string(Base64URL.encode(r.authenticatorData)),
                    "transports": ["internal", "hybrid"], "publicKeyAlgorithm": -7,
                ],
                "clientExtensionResults": ["credProps": ["rk": true]],
            ]
        }
    }

    private func asserted(_ a: PasskeyAuthenticator.Assertion) -> JSONValue {
        switch platform {
        case .ios:
            return [
                "clientDataJSON": .string(Self.dataText(Array(a.clientDataJSON.utf8))),
                "authenticatorData": .string(Self.dataText(a.authenticatorData)),
                "signature": .string(Self.dataText(a.signature)), "rawId": .string(Self.dataText(a.credentialId)),
                "userHandle": .string(Self.dataText(a.userHandle)), "authenticatorAttachment": "platform",
            ]
        case .android:
            let id = Base64URL.encode(a.credentialId)
            return [
                "id": .string(id), "rawId": .string(id), "type": "public-key", "authenticatorAttachment": "platform",
                "response": [
                    "clientDataJSON": .string(Base64URL.encode(Array(a.clientDataJSON.utf8))),
                    "authenticatorData": .string(Base64URL.encode(a.authenticatorData)),
                    "signature": .string(Base64URL.encode(a.signature)),
                    "userHandle": .string(Base64URL.encode(a.userHandle)),
                ],
                "clientExtensionResults": [:],
            ]
        }
    }

    /// Foundation's `String(describing: Data)`.
    private static func dataText(_ bytes: [UInt8]) -> String { "\(bytes.count) bytes" }

    /// `Data(base64Encoded:options: .ignoreUnknownCharacters)`: characters outside standard
    /// base64 (base64url's `-` and `_` among them) are skipped; the rest must decode.
    static func lenientBase64(_ text: String) -> [UInt8]? {
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=")
        return Base64.decode(String(text.filter { alphabet.contains($0) }))
    }
}
