import AuthBridgeCore

/// The callback entries of platform features: reCAPTCHA, social sign-in, app integrity, WebAuthn.
extension CallbackFormat {
    static func reCaptcha(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let siteKey = try s.requiredString("recaptchaSiteKey")
        return CallbackCollector(target: .shared("recaptchaToken")) { typed, _ in
            [.reCaptcha(siteKey: siteKey, value: typed)]
        }
    }

    static func selectIdP(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        guard let providers = try s.array("providers"), !providers.isEmpty,
            providers.allSatisfy({ $0["provider"]?.stringValue != nil })
        else {
            throw SettingsError(reason: "\"providers\" is required: an array of objects with a \"provider\" string")
        }
        return CallbackCollector(target: .shared("selectedIdP")) { typed, _ in
            [.selectIdP(providers: providers, value: typed)]
        }
    }

    static func idP(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let request = Callback.IdPRequest(
            provider: try s.requiredString("provider"), clientId: try s.requiredString("clientId"),
            redirectUri: try s.requiredString("redirectUri"),
            scopes: try s.strings("scopes", nonEmpty: false) ?? ["openid"],
            nonce: try s.string("nonce", default: ""), acrValues: try s.strings("acrValues", nonEmpty: false) ?? [],
            request: try s.string("request", default: ""), requestUri: try s.string("requestUri", default: ""),
            acceptsJSON: try s.bool("acceptsJSON", default: false))
        return CallbackCollector(target: .shared("idpToken"), storage: .allInputs) { _, _ in [.idP(request)] }
    }

    static func appIntegrity(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let challenge = try s.requiredString("challenge")
        return CallbackCollector(target: .shared("appIntegrity"), storage: .allInputs) { _, _ in
            [.appIntegrity(challenge: challenge)]
        }
    }

    /// One entry, two callbacks on the wire: the WebAuthn metadata and the hidden value the
    /// client answers in.
    static func webAuthn(_ s: inout Settings, registration: Bool) throws(SettingsError) -> CallbackCollector {
        let options = Callback.WebAuthnOptions(
            challenge: try s.requiredString("challenge"),
            relyingPartyId: try s.string("relyingPartyId", default: "example.com"),
            timeout: try s.int("timeout", default: 60000, in: 0...600_000),
            userVerification: try s.string("userVerification", default: "preferred"))
        let metadata: Callback
        if registration {
            let userName = try s.string("userName", default: "demo")
            metadata = .webAuthnRegistration(
                options,
                Callback.WebAuthnRegistrationOptions(
                    relyingPartyName: try s.string("relyingPartyName", default: "ForgeRock"), userName: userName,
                    userId: Base64URL.encode(Array(userName.utf8)),
                    displayName: try s.string("displayName", default: userName)))
        } else {
            metadata = .webAuthnAuthentication(options)
        }
        return CallbackCollector(target: .shared("webAuthnOutcome"), answerIndex: 1) { typed, _ in
            [metadata, .webAuthnOutcome(typed: typed)]
        }
    }
}
