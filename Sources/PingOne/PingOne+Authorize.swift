import AuthBridgeCore
import EmbeddedAM
import IdentityServer

extension PingOne {
    /// `/{envId}/as/authorize`. With `response_mode=pi.flow` (what the DaVinci clients send:
    /// ping-ios-sdk `Davinci/Davinci/module/Request.swift`, ping-javascript-sdk
    /// `davinci.api.ts` `start`) the flow `acr_values` names starts and its first form comes back
    /// as JSON; a valid PingOne session cookie (`ST`) without `prompt=login` answers the code at
    /// once. Without `pi.flow` (a browser's redirect) the session's code comes back as a 302 to the
    /// redirect URI; without a session the browser is sent to the sign-on page
    /// (`/{envId}/signon/`, served by the HTTP face), which runs the same flow as forms, as
    /// PingOne's hosted pages do, or, with `prompt=none`, `error=login_required` comes back
    /// (OIDC Core §3.1.2.6).
    func authorize(_ request: PingOneRequest) -> ServerReply {
        let parameters = request.query.merging(request.form) { query, _ in query }
        let clientId = parameters["client_id"] ?? ""
        guard let client = server.clients.find(clientId) else {
            return PingOneReplies.authorizeError(
                "invalid_client", "Client \(clientId) is not an application of this environment")
        }
        let redirectUri = parameters["redirect_uri"] ?? ""
        guard client.redirectUris.contains(redirectUri) else {
            return PingOneReplies.authorizeError("invalid_request", "Redirect URI mismatch")
        }
        guard parameters["response_type"] == "code" else {
            return PingOneReplies.authorizeError("unsupported_response_type", "response_type must be code")
        }
        let authorization = AuthorizationParameters(
            clientId: clientId, redirectUri: redirectUri, scope: parameters["scope"] ?? "openid",
            state: parameters["state"] ?? "", codeChallenge: parameters["code_challenge"] ?? "",
            codeChallengeMethod: parameters["code_challenge_method"] ?? "S256", nonce: parameters["nonce"])
        let piFlow = parameters["response_mode"] == "pi.flow"
        if parameters["prompt"] != "login", let token = Self.cookie("ST", in: request.headers),
            server.sessions.find(token) != nil
        {
            let code = server.authorize(authorization.request(ssoToken: token, issuer: asBase))
            guard piFlow else { return code }
            return PingOneReplies.completed(self, code: code, session: token, interaction: nil)
        }
        guard piFlow else {
            guard parameters["prompt"].map({ $0.split(separator: " ").contains("none") }) == true else {
                return ServerReply(status: 302, headers: ["Location": signOnPage(parameters)])
            }
            let query = "error=login_required&error_description=\(PercentEncoding.escape("A sign-on is required"))"
            let state = authorization.state.isEmpty ? "" : "&state=\(PercentEncoding.escape(authorization.state))"
            return ServerReply(status: 302, headers: ["Location": "\(redirectUri)?\(query)\(state)"])
        }
        let name = parameters["acr_values"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultFlow
        guard let flow = flows[name] else {
            return PingOneReplies.authorizeError("invalid_request", "No flow policy \(name) (acr_values)")
        }
        var interaction = Interaction(
            id: Self.uuid(random), token: random.bytes(64).hexString, flow: flow, form: flow.start,
            stepId: Self.stepId(random), authorization: authorization)
        return advance(&interaction, to: flow.start)
    }

    /// The sign-on page's URL for an authorize request: the request's own parameters, which the
    /// page sends back to `/as/authorize` with `response_mode=pi.flow`.
    func signOnPage(_ parameters: [String: String]) -> String {
        let query = parameters.filter { $0.key != "response_mode" }.sorted { $0.key < $1.key }
            .map { "\(PercentEncoding.escape($0.key))=\(PercentEncoding.escape($0.value))" }.joined(separator: "&")
        return "\(origin)/\(environmentId)/\(PingOneSignOn.path)?\(query)"
    }

    func userInfo(_ request: PingOneRequest) -> ServerReply {
        let header = request.headers["authorization"] ?? ""
        guard header.lowercased().hasPrefix("bearer ") else {
            return ServerReply(
                status: 401, body: ["error": "invalid_token", "error_description": "A bearer token is required"])
        }
        return server.userInfo(accessToken: String(header.dropFirst(7)))
    }

    /// `/{envId}/as/signoff?id_token_hint=…[&post_logout_redirect_uri=…]`: the end session
    /// endpoint discovery names (ping-ios-sdk `Davinci/Davinci/module/Oidc.swift` `signOff`).
    func signOff(_ request: PingOneRequest) -> ServerReply {
        let reply = server.endSession(
            idTokenHint: request.query["id_token_hint"] ?? "", clientId: request.query["client_id"],
            at: .endSessionEndpoint)
        guard reply.isSuccess else { return reply }
        var headers = reply.headers
        headers["Set-Cookie"] = "ST=; Max-Age=0; Path=/"
        if let target = request.query["post_logout_redirect_uri"], reply.status != 302 {
            headers["Location"] = target
            return ServerReply(status: 302, headers: headers)
        }
        return ServerReply(status: reply.status, body: reply.body, headers: headers)
    }

    /// A cookie's value from a `cookie` header (`a=1; b=2`).
    static func cookie(_ name: String, in headers: [String: String]) -> String? {
        for pair in (headers["cookie"] ?? "").split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(" ") == name { return String(parts[1]) }
        }
        return nil
    }

    /// A random UUID (version 4 form), as PingOne names interactions.
    static func uuid(_ random: RandomSource) -> String {
        var bytes = random.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = Array(bytes.hexString)
        return [hex[0..<8], hex[8..<12], hex[12..<16], hex[16..<20], hex[20..<32]].map { String($0) }
            .joined(separator: "-")
    }

    /// A step's id: ten lower-case letters and digits, as DaVinci's (`cq77vwelou`).
    static func stepId(_ random: RandomSource) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return String((0..<10).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] })
    }
}

extension AuthorizationParameters {
    /// Tokens issued for a flow name PingOne's issuer, the one its discovery advertises.
    func request(ssoToken: String, issuer: String) -> AuthorizeRequest {
        AuthorizeRequest(
            ssoToken: ssoToken, clientId: clientId, redirectUri: redirectUri, scope: scope, state: state,
            codeChallenge: codeChallenge, codeChallengeMethod: codeChallengeMethod, issuer: issuer, nonce: nonce)
    }
}

extension Substring {
    fileprivate func trimmingCharacters(_ character: Character) -> Substring {
        var text = self
        while text.first == character { text.removeFirst() }
        while text.last == character { text.removeLast() }
        return text
    }
}
