import AuthBridgeCore
import IdentityServer

/// What FRAuth does inside the app, with one serial owner: the journey in progress, the SSO
/// token, the current user's tokens (refreshed before expiry) and logout. It reaches the identity
/// server only through `IdentityServer`, so embedded and remote servers are driven alike.
public final class AuthSDK {
    public enum JourneyOutcome: Equatable, Sendable {
        case step(Node)
        case success(AccessToken)
    }

    public let options: SDKOptions
    public private(set) var isStarted = false
    /// The node the app is answering; kept after a failure, as FRAuth keeps its `currentNode`.
    public private(set) var currentNode: Node?
    /// The logged-in user's tokens (FRUser.currentUser); nil when nobody is logged in.
    public private(set) var accessToken: AccessToken?
    public private(set) var ssoToken: String?

    private let server: IdentityServer
    private let clock: Clock
    private let random: RandomSource

    public init(server: IdentityServer, options: SDKOptions, clock: Clock, random: RandomSource) {
        self.server = server
        self.options = options
        self.clock = clock
        self.random = random
    }

    public var hasUser: Bool { accessToken != nil }

    public func start() { isStarted = true }

    // MARK: journeys

    /// `FRUser.login` / `FRUser.register`: the first node of the configured journey.
    public func startJourney(registration: Bool) throws(SDKError) -> JourneyOutcome {
        guard isStarted else { throw .notStarted }
        guard !hasUser else { throw .userAlreadyAuthenticated }
        let service = registration ? options.registrationServiceName : options.authServiceName
        let reply = try call { () throws(TransportError) in try server.authenticate(.start(service: service)) }
        return try outcome(of: reply, authServiceId: random.uuid())
    }

    /// `node.next()`: submits the node with the values the app set on it.
    public func submit(_ node: Node) throws(SDKError) -> JourneyOutcome {
        guard isStarted else { throw .notStarted }
        // FRAuth returns the current user without calling AM when one is already logged in.
        if let accessToken { return .success(accessToken) }
        let reply = try call { () throws(TransportError) in try server.authenticate(.submit(node.requestPayload)) }
        return try outcome(of: reply, authServiceId: node.authServiceId)
    }

    private func outcome(of reply: ServerReply, authServiceId: String) throws(SDKError) -> JourneyOutcome {
        guard reply.isSuccess else { throw .authenticationFailed(body: reply.body) }
        if reply.body["authId"] != nil {
            guard let node = Node(step: reply.body, authServiceId: authServiceId) else {
                throw .transport("invalid step from the authenticate endpoint")
            }
            currentNode = node
            return .step(node)
        }
        guard case .string(let tokenId)? = reply.body["tokenId"], !tokenId.isEmpty else {
            throw .authenticationFailed(body: reply.body)
        }
        ssoToken = tokenId
        let token = try exchange(ssoToken: tokenId)
        accessToken = token
        return .success(token)
    }

    // MARK: tokens

    /// Authorization code with PKCE (S256), using the SSO token in place of a browser.
    private func exchange(ssoToken: String) throws(SDKError) -> AccessToken {
        let verifier = random.alphanumeric(43)
        let state = random.alphanumeric(16)
        let request = AuthorizeRequest(
            ssoToken: ssoToken, clientId: options.oauthClientId, redirectUri: options.oauthRedirectUri,
            scope: options.oauthScope, state: state, codeChallenge: PKCE.challenge(for: verifier))
        let redirect = try call { () throws(TransportError) in try server.authorize(request) }
        guard redirect.status == 302, let location = redirect.headers["Location"] else {
            throw oauthError(redirect.body)
        }
        let query = PercentEncoding.queryParameters(of: location)
        if let error = query["error"] { throw .oauth(error: error, description: query["error_description"] ?? "") }
        guard query["state"] == state, let code = query["code"] else {
            throw .oauth(error: "invalid_state", description: "The state of the authorization response does not match")
        }
        let form = [
            "client_id": options.oauthClientId, "code": code, "grant_type": "authorization_code",
            "redirect_uri": options.oauthRedirectUri, "code_verifier": verifier,
        ]
        let reply = try call { () throws(TransportError) in try server.token(form: form) }
        guard reply.status == 200,
            let token = AccessToken.from(response: reply.body, receivedAt: clock.now, previous: nil, sessionToken: ssoToken)
        else { throw oauthError(reply.body) }
        return token
    }

    /// `TokenManager.getAccessToken`: the current token, refreshed first when it is within
    /// `oauthThreshold` of expiry. A refused refresh falls back to the SSO token; when that fails
    /// too, the credentials are gone and the user must authenticate again.
    public func freshAccessToken() throws(SDKError) -> AccessToken {
        guard let current = accessToken else { throw .noCurrentUser }
        guard current.isStale(now: clock.now, threshold: options.oauthThreshold) else { return current }
        if let refreshToken = current.refreshToken {
            let form = [
                "grant_type": "refresh_token", "refresh_token": refreshToken, "client_id": options.oauthClientId,
                "scope": current.scope, "response_type": "token",
            ]
            let reply = try call { () throws(TransportError) in try server.token(form: form) }
            if reply.status == 200,
                let token = AccessToken.from(response: reply.body, receivedAt: clock.now, previous: current, sessionToken: ssoToken)
            {
                accessToken = token
                return token
            }
            logInfo("refresh refused (\(reply.body["error"]?.stringValue ?? "status \(reply.status)")); trying the SSO token")
        }
        if let ssoToken, let token = try? exchange(ssoToken: ssoToken) {
            accessToken = token
            return token
        }
        clearCredentials()
        throw .authenticationRequired
    }

    public func userInfo() throws(SDKError) -> JSONValue {
        let token = try freshAccessToken()
        let reply = try call { () throws(TransportError) in try server.userInfo(accessToken: token.value) }
        guard reply.status == 200, case .object = reply.body else { throw oauthError(reply.body) }
        return reply.body
    }

    // MARK: logout

    /// `FRUser.logout()`: ends the SSO session (no endSession then), revokes the refresh token
    /// (or the access token), and forgets the user. Server errors are only logged, as in FRAuth.
    public func logout() {
        guard accessToken != nil || ssoToken != nil else { return }
        if let ssoToken {
            let reply = try? server.logoutSession(ssoToken: ssoToken)
            if reply?.isSuccess != true { logInfo("session logout answered \(reply?.status ?? 0)") }
        } else if let idToken = accessToken?.idToken {
            _ = try? server.endSession(idTokenHint: idToken, clientId: options.oauthClientId)
        }
        if let token = accessToken {
            let form = ["token": token.refreshToken ?? token.value, "client_id": options.oauthClientId]
            _ = try? server.revoke(form: form)
        }
        clearCredentials()
    }

    private func clearCredentials() {
        accessToken = nil
        ssoToken = nil
    }

    // MARK: helpers

    private func call(_ body: () throws(TransportError) -> ServerReply) throws(SDKError) -> ServerReply {
        do {
            return try body()
        } catch {
            throw .transport(error.message)
        }
    }

    private func oauthError(_ body: JSONValue) -> SDKError {
        .oauth(error: body["error"]?.stringValue ?? "server_error", description: body["error_description"]?.stringValue ?? "")
    }
}
