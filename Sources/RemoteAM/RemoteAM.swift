import AuthBridgeCore
import Foundation
import IdentityServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A real AM / PingOne Advanced Identity Cloud tenant behind the `IdentityServer` seam, spoken
/// to as the native SDKs speak to it (am-protocol.md §1–§4): the journey with
/// `Accept-API-Version: resource=2.1, protocol=1.0`, the SSO token as the session cookie, the
/// load balancer's other cookies kept and sent back, authorize with PKCE answered by a 302 read
/// without following it. AM's error replies are replies; only a missing HTTP answer throws.
/// This is the one target that links Foundation (DESIGN.md §8 item 5).
public final class RemoteAM: IdentityServer {
    public let settings: RemoteServerSettings
    private let transport: RemoteTransport
    private let base: URL
    /// Cookies AM sets besides the SSO one (`amlbcookie`, affinity): sent back as the SDK's jar does.
    private var jar: [String: String] = [:]

    public struct BadSettings: Error, Sendable {
        public let message: String
    }

    public init(settings: RemoteServerSettings) throws(BadSettings) {
        guard let url = URL(string: settings.url), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http",
            let host = url.host, !host.isEmpty
        else {
            throw BadSettings(message: "\(settings.source): the server URL \(settings.url) is not an http(s) URL")
        }
        if settings.insecure {
            // swift-corelibs-foundation on Linux has no server-trust challenge to answer: there
            // is no way to turn verification off per session, so refuse rather than pretend.
            throw BadSettings(
                message: "--insecure is not available: URLSession on Linux always verifies certificates against the system store; "
                    + "add the AM's CA to the system trust store (update-ca-certificates) or use http:// on loopback")
        }
        self.settings = settings
        base = url
        transport = RemoteTransport(timeout: settings.timeout, hostName: host + (url.port.map { ":\($0)" } ?? ""))
    }

    // MARK: journeys

    public func authenticate(_ request: AuthenticateRequest) throws(TransportError) -> ServerReply {
        var query: [(String, String)] = []
        if request.payload == nil {
            if let type = request.authIndexType { query.append(("authIndexType", type)) }
            if let value = request.authIndexValue { query.append(("authIndexValue", value)) }
            if let suspended = request.suspendedId { query.append(("suspendedId", suspended)) }
        }
        if request.noSession { query.append(("noSession", "true")) }
        let body = request.payload.map { JSONWriter().bytes($0) } ?? Array("{}".utf8)
        return try exchange(
            "POST", "json/\(settings.realmPath)/authenticate", query: query,
            headers: ["Accept-API-Version": "resource=2.1, protocol=1.0", "Content-Type": "application/json"],
            body: body, ssoToken: request.ssoToken)
    }

    // MARK: OAuth 2.0 / OIDC

    public func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply {
        let query = [
            ("client_id", request.clientId), ("redirect_uri", request.redirectUri), ("scope", request.scope),
            ("state", request.state), ("code_challenge", request.codeChallenge),
            ("code_challenge_method", request.codeChallengeMethod), ("response_type", request.responseType),
        ]
        return try exchange("GET", "oauth2/\(settings.realmPath)/authorize", query: query, ssoToken: request.ssoToken)
    }

    public func token(form: [String: String]) throws(TransportError) -> ServerReply {
        try exchange("POST", "oauth2/\(settings.realmPath)/access_token", form: form)
    }

    public func userInfo(accessToken: String) throws(TransportError) -> ServerReply {
        try exchange("GET", "oauth2/\(settings.realmPath)/userinfo", headers: ["Authorization": "Bearer \(accessToken)"])
    }

    public func revoke(form: [String: String]) throws(TransportError) -> ServerReply {
        try exchange("POST", "oauth2/\(settings.realmPath)/token/revoke", form: form)
    }

    public func introspect(form: [String: String]) throws(TransportError) -> ServerReply {
        try exchange("POST", "oauth2/\(settings.realmPath)/introspect", form: form)
    }

    public func endSession(idTokenHint: String, clientId: String?) throws(TransportError) -> ServerReply {
        var query = [("id_token_hint", idTokenHint)]
        if let clientId { query.append(("client_id", clientId)) }
        return try exchange("GET", "oauth2/\(settings.realmPath)/connect/endSession", query: query)
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
            "POST", "json/\(settings.realmPath)/sessions", query: [("_action", action)],
            headers: [
                "Accept-API-Version": "resource=3.1, protocol=1.0", "Content-Type": "application/json", settings.cookieName: ssoToken,
            ],
            body: Array("{}".utf8), ssoToken: ssoToken)
    }

    // MARK: the exchange

    private func exchange(
        _ method: String, _ path: String, query: [(String, String)] = [], headers: [String: String] = [:],
        body: [UInt8]? = nil, form: [String: String]? = nil, ssoToken: String? = nil
    ) throws(TransportError) -> ServerReply {
        var text = base.absoluteString
        if !text.hasSuffix("/") { text += "/" }
        text += path
        if !query.isEmpty { text += "?" + query.map { "\($0.0)=\(PercentEncoding.escape($0.1))" }.joined(separator: "&") }
        guard let url = URL(string: text) else { throw TransportError("cannot form a URL for \(path) from \(settings.url)") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let form {
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            let encoded = form.sorted { $0.key < $1.key }.map { "\(PercentEncoding.escape($0.key))=\(PercentEncoding.escape($0.value))" }
            request.httpBody = Data(encoded.joined(separator: "&").utf8)
        } else if let body {
            request.httpBody = Data(body)
        }
        var cookies = jar
        if let ssoToken, !ssoToken.isEmpty { cookies[settings.cookieName] = ssoToken }
        if !cookies.isEmpty {
            request.setValue(cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; "), forHTTPHeaderField: "Cookie")
        }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let started = Date()
        let response: RemoteTransport.Response
        do {
            response = try transport.send(request)
        } catch {
            logDebug("HTTP \(method) /\(path): \(error.message)")
            throw error
        }
        // Paths only: queries and bodies carry codes, tokens and passwords.
        Log.shared.trace("HTTP \(method) /\(path) → \(response.status) (\(Int(Date().timeIntervalSince(started) * 1000)) ms)")
        keepCookies(response.headers["set-cookie"], url: url)
        return try reply(response, what: "\(method) /\(path)")
    }

    private func keepCookies(_ header: String?, url: URL) {
        guard let header else { return }
        for cookie in HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": header], for: url) {
            // The SSO cookie is the SDK layer's to keep (it passes it in); an expired one is a deletion.
            guard cookie.name != settings.cookieName else { continue }
            if cookie.value.isEmpty || (cookie.expiresDate.map { $0 < Date() } ?? false) {
                jar[cookie.name] = nil
            } else {
                jar[cookie.name] = cookie.value
            }
        }
    }

    private func reply(_ response: RemoteTransport.Response, what: String) throws(TransportError) -> ServerReply {
        var headers: [String: String] = [:]
        if let location = response.headers["location"] { headers["Location"] = location }
        if let cookie = response.headers["set-cookie"] { headers["Set-Cookie"] = cookie }
        let text = String(decoding: response.body, as: UTF8.self)
        if text.allSatisfy({ $0.isWhitespace }) { return ServerReply(status: response.status, headers: headers) }
        do {
            return ServerReply(status: response.status, body: try JSONParser.parse(response.body), headers: headers)
        } catch {
            // A proxy's HTML error page or a redirect page: the status is AM's answer, the body is not.
            if response.status >= 500 || response.status == 404 {
                throw TransportError("\(transport.hostName) answered \(what) with HTTP \(response.status) and a body that is not JSON: is \(settings.url) an AM base URL?")
            }
            return ServerReply(status: response.status, headers: headers)
        }
    }
}
