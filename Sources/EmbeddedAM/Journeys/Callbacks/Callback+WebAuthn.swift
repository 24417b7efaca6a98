import AuthBridgeCore

/// WebAuthn steps as AM's WebAuthn nodes send them with `asScript: false`: a MetadataCallback
/// whose `data` is the nodes' script context (`getScriptContext` in ForgeRock/am-external,
/// releases/8.0.2, auth-nodes …/webauthn/WebAuthnRegistrationNode.java and
/// WebAuthnAuthenticationNode.java) with `_type: WebAuthn`, the challenge in standard base64 and
/// `supportsJsonResponse`, followed by the HiddenValueCallback `webAuthnOutcome` the client
/// answers in. Each option is there twice, as AM sends it: the old string forms the SDKs parse
/// (`pubKeyCredParams`, `excludeCredentials`, `relyingPartyId: "id: \"…\","`) and the JSON ones
/// with a leading underscore.
extension Callback {
    struct WebAuthnOptions: Sendable {
        /// Standard base64 (the SDKs decode it with `atob`).
        var challenge: String
        /// The configured relying party id; empty when the node has none (the client then uses
        /// its own origin's host).
        var relyingPartyId: String
        /// Milliseconds.
        var timeout: Int
        var userVerification: String
    }

    struct WebAuthnRegistrationOptions: Sendable {
        var relyingPartyName: String
        var userName: String
        /// base64url of the user's name: what the authenticator keeps as the user handle.
        var userId: String
        var displayName: String
        var attestationPreference = "none"
        var authenticatorSelection: JSONObject = ["userVerification": "preferred", "residentKey": "discouraged"]
        var algorithms: [Int] = [-7, -257]
        /// Credential ids the authenticator must not register again (`excludeCredentials: true`).
        var excludeCredentials: [[UInt8]] = []
    }

    static func webAuthnRegistration(_ o: WebAuthnOptions, _ r: WebAuthnRegistrationOptions) -> Callback {
        var data = webAuthnData(o, action: "webauthn_registration")
        data["attestationPreference"] = .string(r.attestationPreference)
        data["userName"] = .string(r.userName)
        data["userId"] = .string(r.userId)
        data["relyingPartyName"] = .string(r.relyingPartyName)
        data["authenticatorSelection"] = .string(JSONWriter.compact(.object(r.authenticatorSelection)))
        data["_authenticatorSelection"] = .object(r.authenticatorSelection)
        let params = r.algorithms.map { "{ \"type\": \"public-key\", \"alg\": \($0) }" }
        data["pubKeyCredParams"] = .string("[ " + params.joined(separator: ", ") + " ]")
        data["_pubKeyCredParams"] = .array(r.algorithms.map { ["type": "public-key", "alg": .int(Int64($0))] })
        data["excludeCredentials"] = .string(credentialsScript(r.excludeCredentials))
        data["_excludeCredentials"] = credentialsJSON(r.excludeCredentials)
        data["displayName"] = .string(r.displayName)
        data["relyingPartyId"] = .string(o.relyingPartyId.isEmpty ? "" : "id: \"\(o.relyingPartyId)\",")
        return .metadata(data: data)
    }

    static func webAuthnAuthentication(_ o: WebAuthnOptions, allowCredentials: [[UInt8]] = []) -> Callback {
        var data = webAuthnData(o, action: "webauthn_authentication")
        data["allowCredentials"] =
            .string(allowCredentials.isEmpty ? "" : "allowCredentials: [\(credentialsScript(allowCredentials))]")
        data["_allowCredentials"] = credentialsJSON(allowCredentials)
        data["userVerification"] = .string(o.userVerification)
        data["relyingPartyId"] = .string(o.relyingPartyId.isEmpty ? "" : "rpId: \"\(o.relyingPartyId)\",")
        return .metadata(data: data)
    }

    /// The hidden value the client writes the WebAuthn result into. AM sends it with the value
    /// "false" in both forms (`AbstractWebAuthnNode.getCallbacksForWebAuthnInteraction`).
    static func webAuthnOutcome(typed: JSONValue? = nil) -> Callback {
        .hiddenValue(id: "webAuthnOutcome", value: "false", typed: typed)
    }

    private static func webAuthnData(_ o: WebAuthnOptions, action: String) -> JSONObject {
        [
            "_action": .string(action), "challenge": .string(o.challenge), "timeout": .string(String(o.timeout)),
            "_relyingPartyId": .string(o.relyingPartyId), "extensions": .object([:]), "_type": "WebAuthn",
            "supportsJsonResponse": true,
        ]
    }

    /// `ClientScriptUtilities.getDevicesAsJavaScript`: each id as `new Int8Array([…]).buffer`.
    static func credentialsScript(_ ids: [[UInt8]]) -> String {
        ids.map { "{ \"type\": \"public-key\", \"id\": new Int8Array(\(signedBytes($0))).buffer }" }
            .joined(separator: ",")
    }

    /// `getDevicesAsJson`: each id as an array of signed bytes.
    private static func credentialsJSON(_ ids: [[UInt8]]) -> JSONValue {
        .array(
            ids.map { id in
                ["type": "public-key", "id": .array(id.map { .int(Int64(Int8(bitPattern: $0))) })]
            })
    }
}
