import AuthBridgeCore
import IdentityServer

/// The DaVinci client's HTTP client, over `PingOneServer`: URLs the configuration and the flow
/// hand out become requests from the environment on, the SDK's headers go on every request, and
/// the cookies PingOne sets come back on the next one (the DaVinci module's `CookieModule`, which
/// keeps `ST` and `ST-NO-SS` across starts, ping-ios `Davinci/Davinci/Davinci.swift`).
final class PingOneLink {
    let server: PingOneServer
    let platform: Platform
    private(set) var cookies: [(name: String, value: String)] = []

    init(server: PingOneServer, platform: Platform) {
        self.server = server
        self.platform = platform
    }

    /// The headers the SDK adds (`CustomHeader`): iOS names itself (`x-requested-with: ping-sdk`,
    /// `x-requested-platform: ios`); Android sends only its locale. The emulated device is en-US.
    private var sdkHeaders: [String: String] {
        switch platform {
        case .ios:
            return ["x-requested-with": "ping-sdk", "x-requested-platform": "ios", "accept-language": "en-US"]
        case .android: return ["accept-language": "en-US"]
        }
    }

    /// `url`'s path and query as a request; a URL with no path is refused as a client would
    /// refuse it.
    func send(
        _ method: String, _ url: String, query: [String: String] = [:], headers: [String: String] = [:],
        json: JSONValue? = nil, form: [String: String] = [:]
    ) throws(TransportError) -> ServerReply {
        guard let (path, urlQuery) = Self.split(url) else { throw TransportError("Invalid URL: \(url)") }
        var all = sdkHeaders
        all.merge(headers) { _, new in new }
        if !cookies.isEmpty { all["cookie"] = cookies.map { "\($0.name)=\($0.value)" }.joined(separator: "; ") }
        let request = PingOneRequest(
            method: method, path: path, query: urlQuery.merging(query) { _, new in new }, headers: all, json: json,
            form: form)
        let reply = try server.pingOne(request)
        keepCookies(reply.headers)
        return reply
    }

    var hasCookies: Bool { !cookies.isEmpty }

    func clearCookies() { cookies = [] }

    /// `Set-Cookie` (one or more, newline-separated): each `name=value` replaces one of that
    /// name; an empty value or `Max-Age=0` deletes it.
    private func keepCookies(_ headers: [String: String]) {
        guard let header = headers.first(where: { $0.key.lowercased() == "set-cookie" })?.value else { return }
        for line in header.split(separator: "\n") {
            let attributes = line.split(separator: ";").map { String($0).trimmingSpaces }
            guard let pair = attributes.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            let value = String(pair[pair.index(after: equals)...])
            cookies.removeAll { $0.name == name }
            if !value.isEmpty, !attributes.contains(where: { $0.lowercased() == "max-age=0" }) {
                cookies.append((name, value))
            }
        }
    }

    /// `https://host/envId/as/authorize?x=y` → (`/envId/as/authorize`, `[x: y]`).
    static func split(_ url: String) -> (String, [String: String])? {
        let parts = url.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].hasSuffix(":"), parts[1].hasPrefix("/") else { return nil }
        let afterHost = parts[1].dropFirst()
        guard let slash = afterHost.firstIndex(of: "/") else { return nil }
        let rest = afterHost[slash...]
        let path = rest.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        return (path, PercentEncoding.queryParameters(of: String(rest)))
    }
}

extension String {
    fileprivate var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}

/// PingOne's OIDC endpoints, from the environment's discovery document, as the `OAuthServer` the
/// Ping SDK's OIDC client calls (token, user info, revocation, sign-off). The authorize step is
/// the flow itself, so `authorize` is never called here.
final class PingOneOAuthServer: OAuthServer {
    private let link: PingOneLink
    let discovery: JSONValue

    init(link: PingOneLink, discovery: JSONValue) {
        self.link = link
        self.discovery = discovery
    }

    private func endpoint(_ name: String) throws(TransportError) -> String {
        guard let url = discovery[name]?.stringValue else { throw TransportError("Discovery has no \(name)") }
        return url
    }

    func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply {
        throw TransportError("A DaVinci flow authorizes through the flow")
    }

    func token(form: [String: String]) throws(TransportError) -> ServerReply {
        try link.send("POST", try endpoint("token_endpoint"), form: form)
    }

    func userInfo(accessToken: String) throws(TransportError) -> ServerReply {
        try link.send("GET", try endpoint("userinfo_endpoint"), headers: ["authorization": "Bearer \(accessToken)"])
    }

    func revoke(form: [String: String]) throws(TransportError) -> ServerReply {
        try link.send("POST", try endpoint("revocation_endpoint"), form: form)
    }

    func endSession(
        idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint
    ) throws(TransportError) -> ServerReply {
        var query = ["id_token_hint": idTokenHint]
        query["client_id"] = clientId
        return try link.send("GET", try self.endpoint("end_session_endpoint"), query: query)
    }

    func validateSession(ssoToken: String) throws(TransportError) -> ServerReply {
        ServerReply(status: 404)
    }
}
