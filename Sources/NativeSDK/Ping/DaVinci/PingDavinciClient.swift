import AuthBridgeCore
import IdentityServer

/// What the app passes for a DaVinci client (`DaVinciClientPayload`, flattened by the RN SDK's
/// `createDaVinciClient`): the OIDC client whose authorize request starts the flow.
public struct PingDavinciConfig: Equatable, Sendable {
    public var discoveryEndpoint: String
    public var clientId: String
    public var redirectUri: String
    public var scopes: [String]
    public var acrValues: String?
    public var display: String?
    public var loginHint: String?
    public var nonce: String?
    public var prompt: String?
    public var uiLocales: String?
    public var state: String?
    /// Sent in key order, so the same config always sends the same request.
    public var additionalParameters: [String: String]
    public var refreshThreshold: Double
    public var storageKey: String

    public init(
        discoveryEndpoint: String, clientId: String, redirectUri: String, scopes: [String],
        acrValues: String? = nil, display: String? = nil, loginHint: String? = nil, nonce: String? = nil,
        prompt: String? = nil, uiLocales: String? = nil, state: String? = nil,
        additionalParameters: [String: String] = [:], refreshThreshold: Double = 0,
        storageKey: String = PingStores.defaultKey
    ) {
        self.discoveryEndpoint = discoveryEndpoint
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.scopes = scopes
        self.acrValues = acrValues
        self.display = display
        self.loginHint = loginHint
        self.nonce = nonce
        self.prompt = prompt
        self.uiLocales = uiLocales
        self.state = state
        self.additionalParameters = additionalParameters
        self.refreshThreshold = refreshThreshold
        self.storageKey = storageKey
    }
}

/// The Ping SDK's DaVinci workflow (ping-ios `Davinci/Davinci/`, ping-android `davinci/`) over
/// `PingOneServer`: `start` is the OIDC authorize request with `response_mode=pi.flow` (the
/// flow's first form comes back as JSON), `next` posts a form's values to its `_links.next`, and
/// a success hands over an authorization code, which the OIDC client (`PingOidcClient`, the one
/// the journey and OIDC modules use, with the same token storages) exchanges for tokens.
public final class PingDavinciClient {
    public let platform: Platform
    public let config: PingDavinciConfig
    private let link: PingOneLink?
    private let random: RandomSource
    /// The environment's discovery document, read once (the OIDC module's `initialize`).
    private var discovery: JSONValue?
    /// The OIDC client over PingOne's endpoints, once discovery has been read.
    private var oidc: PingOidcClient?
    private let makeOidc: (OAuthServer) -> PingOidcClient
    /// The PKCE verifier of the authorize request that started the current flow.
    private var verifier: String?
    /// The user the last success made (the workflow's shared context keeps it): the flow's code,
    /// which the agent hands over once.
    private var successCode: (code: String, used: Bool)?
    /// The last form, which Android shows again when the flow rewinds to it.
    private var lastForm: DavinciContinueNode?

    init(
        config: PingDavinciConfig, platform: Platform, server: PingOneServer?, clock: Clock, random: RandomSource,
        stores: PingStores
    ) {
        self.config = config
        self.platform = platform
        self.random = random
        link = server.map { PingOneLink(server: $0, platform: platform) }
        let oidcConfig = PingOidcConfig(
            clientId: config.clientId, redirectUri: config.redirectUri, scopes: config.scopes,
            refreshThreshold: config.refreshThreshold, storageKey: config.storageKey)
        makeOidc = { PingOidcClient(config: oidcConfig, server: $0, clock: clock, random: random, stores: stores) }
    }

    /// The OIDC client, reading discovery first if need be.
    private func oidcClient() throws(TransportError) -> PingOidcClient {
        if let oidc { return oidc }
        guard let link else { throw TransportError("No PingOne environment is served here") }
        let reply = try link.send("GET", config.discoveryEndpoint)
        guard reply.status == 200, case .object = reply.body else {
            throw TransportError("Discovery failed with status \(reply.status)")
        }
        let client = makeOidc(PingOneOAuthServer(link: link, discovery: reply.body))
        discovery = reply.body
        oidc = client
        return client
    }

    // MARK: the flow

    /// `davinci.start()`: a previous user's tokens are revoked, then the authorize request with
    /// `response_mode=pi.flow` and PKCE (ping-ios `Davinci/Davinci/module/Request.swift`,
    /// ping-android `foundation/oidc/…/module/OidcRequest.kt`, which also sends `state`).
    public func start() -> DavinciNode {
        let oidc: PingOidcClient
        do {
            oidc = try oidcClient()
        } catch {
            return .failure(.init(status: nil, content: error.message))
        }
        if hasUser { oidc.revoke() }
        successCode = nil
        let verifier = random.alphanumeric(43)
        self.verifier = verifier
        var query: [String: String] = [
            "response_mode": "pi.flow", "client_id": config.clientId, "response_type": "code",
            "scope": config.scopes.joined(separator: " "), "redirect_uri": config.redirectUri,
            "code_challenge": PKCE.challenge(for: verifier), "code_challenge_method": "S256",
        ]
        query["acr_values"] = config.acrValues
        query["display"] = config.display
        for (key, value) in config.additionalParameters { query[key] = value }
        query["login_hint"] = config.loginHint
        if platform == .android { query["state"] = config.state }
        query["nonce"] = config.nonce
        query["prompt"] = config.prompt
        query["ui_locales"] = config.uiLocales
        guard let authorize = discovery?["authorization_endpoint"]?.stringValue else {
            return .failure(.init(status: nil, content: "Discovery has no authorization_endpoint"))
        }
        return send("GET", authorize, query: query)
    }

    /// `ContinueNode.next()`: the form's values posted to `_links.next.href` (`Connector.asRequest()`),
    /// unless a collector set a resume request: the collectors intercept the request in their
    /// order, each with a resume request putting it in place, so the last one's is sent.
    public func next(_ node: DavinciContinueNode) -> DavinciNode {
        if let resume = node.collectors.last(where: { $0.resumeRequest != nil })?.resumeRequest {
            return send(resume.method, resume.url, headers: resume.headers, json: resume.json)
        }
        return send("POST", node.nextHref, headers: ["content-type": "application/json"], json: node.requestBody)
    }

    /// The environment's server, for a browser outside the flow's cookies.
    var pingOneServer: PingOneServer? { link?.server }

    /// A request to PingOne outside the flow's answers (the poll's status endpoint, an IdP link).
    func request(_ method: String, _ url: String, headers: [String: String]) throws(TransportError) -> ServerReply {
        guard let link else { throw TransportError("No PingOne environment is served here") }
        return try link.send(method, url, headers: headers)
    }

    private func send(
        _ method: String, _ url: String, query: [String: String] = [:], headers: [String: String] = [:],
        json: JSONValue? = nil
    ) -> DavinciNode {
        guard let link else { return .failure(.init(status: nil, content: "No PingOne environment is served here")) }
        let reply: ServerReply
        do {
            reply = try link.send(method, url, query: query, headers: headers, json: json)
        } catch {
            return .failure(.init(status: nil, content: error.message))
        }
        let node = DavinciNode.from(reply, platform: platform, previous: lastForm)
        switch node {
        case .next(let form): lastForm = form
        case .success(_, let code):
            successCode = (code, false)
            // Android's OIDC module exchanges the code at once and ignores the outcome
            // (`foundation/oidc/…/module/Oidc.kt` `success`); iOS waits for the first `token()`.
            if platform == .android { _ = try? token() }
        default: break
        }
        return node
    }

    // MARK: the user

    /// Whether `daVinciUser()` / `user()` gives a user: a success of this client (the shared
    /// context's user), or tokens a previous sign-on stored (standing in for the SDK's check of
    /// PingOne's `ST` session cookie, which a restart keeps).
    public var hasUser: Bool { successCode != nil || (try? oidcClient())?.storedToken != nil }

    /// The agent's authorize step: the flow's code once (ping-ios `Davinci/Davinci/Agent.swift`,
    /// ping-android `foundation/oidc/…/module/Oidc.kt` `agent`).
    private func exchangeCode(_ oidc: PingOidcClient) throws(PingSDKError) -> AccessToken {
        guard let success = successCode, !success.code.isEmpty else {
            throw .authorize(
                platform == .ios
                    ? "Please start DaVinci flow to authenticate." : "Please start the authorization flow again.")
        }
        guard !success.used else {
            throw .authorize(
                platform == .ios
                    ? "Auth code already used, please start DaVinci flow again."
                    : "Auth code already used, please start authorization flow again.")
        }
        successCode?.used = true
        return try oidc.exchange(code: success.code, verifier: verifier)
    }

    private func userOidc() throws(PingSDKError) -> PingOidcClient {
        do {
            return try oidcClient()
        } catch {
            throw .network(error.message)
        }
    }

    /// `user.token()`: the stored token, refreshed when stale, else the flow's code exchanged.
    public func token() throws(PingSDKError) -> AccessToken {
        let oidc = try userOidc()
        return try oidc.tokenOrAuthorize { () throws(PingSDKError) in try exchangeCode(oidc) }
    }

    public func refresh() throws(PingSDKError) -> AccessToken { try userOidc().refresh() }

    public func userinfo() throws(PingSDKError) -> JSONValue {
        let oidc = try userOidc()
        return try oidc.userinfoOrAuthorize(cache: false) { () throws(PingSDKError) in try exchangeCode(oidc) }
    }

    public func revoke() { (try? oidcClient())?.revoke() }

    /// `workflow.signOff()`: the OIDC end session (revoke, then the sign-off with the ID token),
    /// and the flow's cookies and user forgotten. False when the sign-off was refused.
    public func signOff() -> Bool {
        let ended = (try? oidcClient())?.endSession() ?? true
        link?.clearCookies()
        successCode = nil
        lastForm = nil
        return ended
    }
}
