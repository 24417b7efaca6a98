import AuthBridgeCore
import EmbeddedAM
import IdentityServer

/// An embedded server on a virtual clock with a fixed seed, and helpers that speak to it as an
/// SDK would: fill a step's inputs by name and post it back.
struct Harness {
    let clock = VirtualClock()
    let am: EmbeddedAM

    init(seed: UInt64 = 1, retentionCap: Int? = nil, idTokenSigningAlgorithm: TokenSigningAlgorithm = .rs256) {
        var config = EmbeddedAMConfig()
        if let retentionCap { config.retentionCap = retentionCap }
        config.clients[0].idTokenSigningAlgorithm = idTokenSigningAlgorithm
        am = EmbeddedAM(config: config, clock: clock, random: SeededRandomSource(seed: seed))
    }

    func start(_ journey: String) -> ServerReply {
        am.authenticate(.start(service: journey))
    }

    /// Sets each named input of `step` and submits it.
    func submit(_ step: JSONValue, _ values: [String: JSONValue]) -> ServerReply {
        am.authenticate(.submit(Self.fill(step, values)))
    }

    static func fill(_ step: JSONValue, _ values: [String: JSONValue]) -> JSONValue {
        guard case .object(var object) = step, case .array(let callbacks)? = object["callbacks"] else { return step }
        object["callbacks"] = .array(
            callbacks.map { callback in
                guard case .object(var cb) = callback, case .array(let inputs)? = cb["input"] else { return callback }
                cb["input"] = .array(
                    inputs.map { input in
                        guard case .object(var i) = input, let name = i["name"]?.stringValue, let value = values[name]
                        else { return input }
                        i["value"] = value
                        return .object(i)
                    })
                return .object(cb)
            })
        return .object(object)
    }

    /// Logs in through the Login journey and returns the SSO token.
    func ssoToken(username: String = "demo", password: String = "Ch4ng3it!") -> String? {
        let step = start("Login").body
        return submit(step, ["IDToken1": .string(username), "IDToken2": .string(password)]).body["tokenId"]?.stringValue
    }

    static let redirect = "https://com.example.reactnative.todo/callback"

    /// Authorize + code exchange with PKCE; returns the token response.
    func tokens(
        ssoToken: String, verifier: String = "verifier-0123456789-0123456789-0123456789xx",
        scope: String = "openid profile email", nonce: String? = nil
    ) -> ServerReply {
        let location =
            am.authorize(
                AuthorizeRequest(
                    ssoToken: ssoToken, clientId: "ReactNativeOAuthClient", redirectUri: Self.redirect, scope: scope,
                    state: "s1", codeChallenge: PKCE.challenge(for: verifier, method: "S256"), nonce: nonce)
            ).headers["Location"] ?? ""
        let code = Self.query(location)["code"] ?? ""
        return am.token(form: [
            "grant_type": "authorization_code", "code": code, "client_id": "ReactNativeOAuthClient",
            "redirect_uri": Self.redirect, "code_verifier": verifier,
        ])
    }

    static func query(_ url: String) -> [String: String] { PercentEncoding.queryParameters(of: url) }
}
