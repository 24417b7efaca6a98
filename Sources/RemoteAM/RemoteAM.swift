import AuthBridgeCore
import IdentityServer

/// A real AM / PingOne Advanced Identity Cloud tenant behind the `IdentityServer` seam, spoken
/// to as the native SDKs speak to it (`ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/Authentication/AuthService.swift`,
/// `OAuth2/`; docs/remote.md): the journey with
/// `Accept-API-Version: resource=2.1, protocol=1.0`, the SSO token as the session cookie, the
/// load balancer's other cookies kept and sent back, authorize with PKCE answered by a 302 read
/// without following it. AM's error replies are replies; only a missing HTTP answer throws.
/// HTTP goes through the system's libcurl (`RemoteTransport`), so this target, and only
/// `authbridge-remote`, needs it at run time (docs/remote.md).
public final class RemoteAM: IdentityServer {
    public let settings: RemoteServerSettings
    private let transport: RemoteTransport
    /// Where each call goes: AM's layout, the app's overrides, the discovery document's.
    let endpoints: TenantEndpoints
    /// Cookies AM sets besides the SSO one (`amlbcookie`, affinity): sent back as the SDK's jar does.
    private var jar = CookieJar()

    public struct BadSettings: Error, Sendable {
        public let message: String
        /// 2 when the configuration is wrong (as a usage error), 1 when the machine cannot run it.
        public var status: Int32 = 2
    }

    public init(settings: RemoteServerSettings) throws(BadSettings) {
        let lowered = settings.url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else {
            throw BadSettings(message: "\(settings.source): the server URL \(settings.url) is not an http(s) URL")
        }
        let hostName = RemoteTransport.authority(of: settings.url)
        guard !hostName.isEmpty, !hostName.hasPrefix(":") else {
            throw BadSettings(message: "\(settings.source): the server URL \(settings.url) names no host")
        }
        let trust: RemoteTransport.Trust =
            if settings.insecure { .insecure } else if let file = settings.caFile { .caFile(file) } else { .system }
        do {
            transport = try RemoteTransport(
                timeout: settings.timeout, maxReplyBytes: settings.maxReplyBytes, trust: trust)
        } catch {
            throw BadSettings(message: error.message, status: 1)
        }
        self.settings = settings
        let base = settings.url.hasSuffix("/") ? settings.url : settings.url + "/"
        if settings.insecure {
            // Whatever the log level: a run that trusts any certificate must say so every time.
            Log.shared.plain(
                "authbridge: WARNING: --insecure: the TLS certificate of \(hostName) is NOT verified; anyone on the network path "
                    + "can pose as the tenant and read passwords and tokens. Use it only for a local AM with a self-signed certificate.\n"
            )
        }
        let layout = TenantEndpoints(base: base, realmPath: settings.realmPath, overrides: settings.endpoints)
        if let url = settings.discoveryURL {
            endpoints = try Self.discover(url, transport: transport, fallback: layout)
            for endpoint in TenantEndpoints.discovered where settings.endpoints[endpoint] != nil {
                logWarn(
                    "\(settings.source): \(endpoint.configKey) is replaced by the discovery document's endpoint, as the iOS SDK's FROptions.discover replaces it"
                )
            }
        } else {
            endpoints = layout
        }
    }

    /// The SDK reads the document once, at start: a tenant that cannot tell its endpoints then
    /// stops the start, naming the URL and what was wrong.
    private static func discover(
        _ url: String, transport: RemoteTransport, fallback: TenantEndpoints
    ) throws(BadSettings) -> TenantEndpoints {
        let response: RemoteTransport.Response
        do {
            response = try transport.send("GET", url: url, headers: [("Accept", "application/json")], body: nil)
        } catch {
            throw BadSettings(message: "cannot read the discovery document \(url): \(error.message)")
        }
        guard response.status == 200 else {
            throw BadSettings(
                message:
                    "the discovery document \(url) answered HTTP \(response.status), not 200: check the discovery URL")
        }
        do {
            return try TenantEndpoints(document: response.body, url: url, fallback: fallback)
        } catch {
            throw BadSettings(message: error.message)
        }
    }

    // MARK: journeys

    public func authenticate(_ request: AuthenticateRequest) throws(TransportError) -> ServerReply {
        var query: [(String, String)] = []
        if request.payload == nil {
            if let type = request.authIndexType { query.append(("authIndexType", type)) }
            if let value = request.authIndexValue { query.append(("authIndexValue", value)) }
            if let suspended = request.suspendedId { query.append(("suspendedId", suspended)) }
            if request.forceAuth { query.append(("ForceAuth", "true")) }
        }
        if request.noSession { query.append(("noSession", "true")) }
        query.append(contentsOf: request.parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        let body = request.payload.map { JSONWriter().bytes($0) } ?? Array("{}".utf8)
        return try exchange(
            "POST", endpoints.authenticate, query: query,
            headers: ["Accept-API-Version": "resource=2.1, protocol=1.0", "Content-Type": "application/json"],
            body: body, ssoToken: request.ssoToken)
    }

    // MARK: OAuth 2.0 / OIDC

    public func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply {
        var query = [
            ("client_id", request.clientId), ("redirect_uri", request.redirectUri), ("scope", request.scope),
            ("state", request.state), ("code_challenge", request.codeChallenge),
            ("code_challenge_method", request.codeChallengeMethod), ("response_type", request.responseType),
        ]
        // OIDC Core §3.1.2.1: the tenant puts it in the ID token, where the caller checks it.
        if let nonce = request.nonce, !nonce.isEmpty { query.append(("nonce", nonce)) }
        if let prompt = request.prompt, !prompt.isEmpty { query.append(("prompt", prompt)) }
        return try exchange("GET", endpoints.authorize, query: query, ssoToken: request.ssoToken)
    }

    public func token(form: [String: String]) throws(TransportError) -> ServerReply {
        try exchange("POST", endpoints.token, form: form)
    }

    public func userInfo(accessToken: String) throws(TransportError) -> ServerReply {
        try exchange("GET", endpoints.userInfo, headers: ["Authorization": "Bearer \(accessToken)"])
    }

    public func revoke(form: [String: String]) throws(TransportError) -> ServerReply {
        try exchange("POST", endpoints.revoke, form: form)
    }

    public func introspect(form: [String: String]) throws(TransportError) -> ServerReply {
        try exchange("POST", endpoints.introspect, form: form)
    }

    public func jwks() throws(TransportError) -> ServerReply { try exchange("GET", endpoints.jwks) }

    /// Forwarded as the ForgeRock Authenticator sends it (forgerock-android-sdk
    /// `forgerock-authenticator/.../util/RequestBuilder.java`): JSON, API version resource 1.0.
    public func pushMessage(_ action: PushAction, body: JSONValue) throws(TransportError) -> ServerReply {
        try exchange(
            "POST", endpoints.pushMessage, query: [("_action", action.rawValue)],
            headers: ["Accept-API-Version": "resource=1.0, protocol=1.0", "Content-Type": "application/json"],
            body: JSONWriter().bytes(body))
    }

    public func endSession(
        idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint
    ) throws(TransportError) -> ServerReply {
        var query = [("id_token_hint", idTokenHint)]
        if let clientId { query.append(("client_id", clientId)) }
        return try exchange("GET", endpoints.endSession(at: endpoint), query: query)
    }

    // MARK: sessions

    public func logoutSession(ssoToken: String) throws(TransportError) -> ServerReply {
        try sessions("logout", ssoToken: ssoToken)
    }

    public func validateSession(ssoToken: String) throws(TransportError) -> ServerReply {
        try sessions("validate", ssoToken: ssoToken)
    }

    public func sessionInfo(ssoToken: String, refresh: Bool) throws(TransportError) -> ServerReply {
        try sessions(refresh ? "refresh" : "getSessionInfo", ssoToken: ssoToken)
    }

    /// The session named by a header called like the cookie, as the iOS SDK sends it.
    private func sessions(_ action: String, ssoToken: String) throws(TransportError) -> ServerReply {
        try exchange(
            "POST", endpoints.sessions, query: [("_action", action)],
            headers: [
                "Accept-API-Version": "resource=3.1, protocol=1.0", "Content-Type": "application/json",
                settings.cookieName: ssoToken,
            ],
            body: Array("{}".utf8), ssoToken: ssoToken)
    }

    /// AM's device endpoints, as the app's own REST calls reach them (forgerock-ios-sdk
    /// `FRDeviceBinding/FRDeviceBinding/Sources/RemoteDeviceBindingRepository.swift`).
    public func devices(_ request: DevicesRequest) throws(TransportError) -> ServerReply {
        let collection = "\(endpoints.users)/\(PercentEncoding.escape(request.user))/\(request.collectionPath)"
        var headers = ["Accept-API-Version": "resource=1.0", "Content-Type": "application/json"]
        if let token = request.ssoToken { headers[settings.cookieName] = token }
        switch request.operation {
        case .query:
            return try exchange(
                "GET", collection, query: [("_queryFilter", "true")], headers: headers, ssoToken: request.ssoToken)
        case .rename(let uuid, let name):
            return try exchange(
                "PUT", collection + "/" + PercentEncoding.escape(uuid), headers: headers,
                body: JSONWriter().bytes([request.nameMember: .string(name)]), ssoToken: request.ssoToken)
        case .delete(let uuid):
            return try exchange(
                "DELETE", collection + "/" + PercentEncoding.escape(uuid), headers: headers, ssoToken: request.ssoToken)
        case .reset:
            return try exchange(
                "POST", collection, query: [("_action", "reset")], headers: headers, body: Array("{}".utf8),
                ssoToken: request.ssoToken)
        }
    }

    // MARK: the exchange

    private func exchange(
        _ method: String, _ url: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: [UInt8]? = nil, form: [String: String]? = nil, ssoToken: String? = nil
    ) throws(TransportError) -> ServerReply {
        var text = url
        if !query.isEmpty {
            text +=
                (url.contains("?") ? "&" : "?")
                + query.map { "\($0.0)=\(PercentEncoding.escape($0.1))" }.joined(separator: "&")
        }
        var lines: [(String, String)] = headers.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var payload = body
        if let form {
            lines.append(("Content-Type", "application/x-www-form-urlencoded"))
            let encoded = form.sorted { $0.key < $1.key }.map {
                "\(PercentEncoding.escape($0.key))=\(PercentEncoding.escape($0.value))"
            }
            payload = Array(encoded.joined(separator: "&").utf8)
        }
        let host = CookieJar.host(ofAuthority: RemoteTransport.authority(of: url))
        var cookies = jar.cookies(for: host).map { ($0.name, $0.value) }
        if let ssoToken, !ssoToken.isEmpty { cookies.append((settings.cookieName, ssoToken)) }
        if !cookies.isEmpty {
            lines.append(("Cookie", cookies.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: "; ")))
        }
        lines.append(("Accept", "application/json"))
        // Host and path only: queries and bodies carry codes, tokens and passwords.
        let place = RemoteTransport.authority(of: url) + RemoteTransport.path(of: url)
        let started = ContinuousClock.now
        let response: RemoteTransport.Response
        do {
            response = try transport.send(method, url: text, headers: lines, body: payload)
        } catch {
            logDebug("HTTP \(method) \(place): \(error.message)")
            throw error
        }
        let elapsed = ContinuousClock.now - started
        Log.shared.trace(
            "HTTP \(method) \(place) → \(response.status) (\(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000) ms)"
        )
        keepCookies(response.headers["set-cookie"] ?? [], from: host)
        return try reply(response, what: "\(method) \(RemoteTransport.path(of: url))", url: url)
    }

    private func keepCookies(_ headers: [String], from host: String) {
        let now = CivilTime(unixSeconds: SystemClock().now)
        for header in headers {
            // The SSO cookie is the SDK layer's to keep (it passes it in).
            guard let cookie = SetCookie(header, now: now), cookie.name != settings.cookieName else { continue }
            jar.store(cookie, from: host)
        }
    }

    private func reply(
        _ response: RemoteTransport.Response, what: String, url: String
    ) throws(TransportError) -> ServerReply {
        var headers: [String: String] = [:]
        if let location = response.headers["location"]?.last { headers["Location"] = location }
        if let cookies = response.headers["set-cookie"] { headers["Set-Cookie"] = cookies.joined(separator: ", ") }
        let text = String(decoding: response.body, as: UTF8.self)
        if text.allSatisfy({ $0.isWhitespace }) { return ServerReply(status: response.status, headers: headers) }
        do {
            return ServerReply(status: response.status, body: try JSONParser.parse(response.body), headers: headers)
        } catch {
            // A proxy's HTML error page or a redirect page: the status is AM's answer, the body is not.
            if response.status >= 500 || response.status == 404 {
                throw TransportError(
                    "\(RemoteTransport.authority(of: url)) answered \(what) with HTTP \(response.status) and a body that is not JSON: is \(settings.url) an AM base URL?"
                )
            }
            return ServerReply(status: response.status, headers: headers)
        }
    }
}
