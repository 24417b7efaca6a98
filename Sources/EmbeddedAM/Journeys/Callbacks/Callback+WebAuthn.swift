import AuthBridgeCore

/// WebAuthn steps as AM's WebAuthn nodes send them with `asScript: false`: a MetadataCallback
/// whose `data._type` is `WebAuthn`, followed by the HiddenValueCallback `webAuthnOutcome` the
/// client answers in. The iOS SDK builds its WebAuthn classes from that pair.
extension Callback {
    struct WebAuthnOptions: Sendable {
        var challenge: String
        var relyingPartyId: String
        /// Milliseconds.
        var timeout: Int
        var userVerification: String
    }

    static func webAuthnRegistration(
        _ o: WebAuthnOptions, relyingPartyName: String, displayName: String, userName: String
    ) -> Callback {
        var data = webAuthnData(o, action: "webauthn_registration")
        data["relyingPartyName"] = .string(relyingPartyName)
        data["attestationPreference"] = "none"
        data["displayName"] = .string(displayName)
        data["userName"] = .string(userName)
        data["pubKeyCredParams"] = [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]]
        return .metadata(data: data)
    }

    static func webAuthnAuthentication(_ o: WebAuthnOptions) -> Callback {
        var data = webAuthnData(o, action: "webauthn_authentication")
        data["allowCredentials"] = []
        return .metadata(data: data)
    }

    /// The hidden value the client writes the WebAuthn result into. AM sends it with the value
    /// "false" in both forms (`AbstractWebAuthnNode.getCallbacksForWebAuthnInteraction`).
    static func webAuthnOutcome(typed: JSONValue? = nil) -> Callback {
        .hiddenValue(id: "webAuthnOutcome", value: "false", typed: typed)
    }

    private static func webAuthnData(_ o: WebAuthnOptions, action: String) -> JSONObject {
        [
            "_type": "WebAuthn", "_action": .string(action), "challenge": .string(o.challenge),
            "relyingPartyId": .string(o.relyingPartyId), "timeout": .string(String(o.timeout)),
            "userVerification": .string(o.userVerification), "supportsJsonResponse": true,
        ]
    }
}
