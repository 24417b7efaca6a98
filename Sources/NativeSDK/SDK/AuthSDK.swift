import AuthBridgeCore
import IdentityServer

/// What FRAuth does inside the app: the journey in progress, then the user's credentials (held
/// by `tokens`), user info and logout. It reaches the identity server only through
/// `IdentityServer`, so embedded and remote servers are driven alike.
public final class AuthSDK {
    public enum JourneyOutcome: Equatable, Sendable {
        case step(Node)
        case success(AccessToken)
    }

    public private(set) var options: SDKOptions
    public private(set) var isStarted = false
    /// The node the app is answering; kept after a failure, as FRAuth keeps its `currentNode`.
    public private(set) var currentNode: Node?
    /// The logged-in user's credentials (FRUser.currentUser): the one place they live.
    public let tokens: TokenManager

    private let server: IdentityServer
    private let random: RandomSource
    private let client: OAuthClient

    public init(server: IdentityServer, options: SDKOptions, clock: Clock, random: RandomSource) {
        self.server = server
        self.options = options
        self.random = random
        client = OAuthClient(server: server, options: options, clock: clock, random: random)
        tokens = TokenManager(
            client: client, clock: clock, threshold: options.oauthThreshold,
            checksSession: options.checksSessionOnRefresh)
    }

    /// The journeys `login` and `register` start (FROptions `authServiceName` and
    /// `registrationServiceName`), changeable between journeys as an app reconfigures.
    public func setServiceNames(login: String?, registration: String?) {
        if let login { options.authServiceName = login }
        if let registration { options.registrationServiceName = registration }
    }

    public var accessToken: AccessToken? { tokens.accessToken }
    public var hasUser: Bool { tokens.accessToken != nil }

    public func start() { isStarted = true }

    // MARK: journeys

    /// `FRUser.login` / `FRUser.register`: the first node of the configured journey.
    public func startJourney(registration: Bool) throws(SDKError) -> JourneyOutcome {
        guard isStarted else { throw .notStarted }
        guard !hasUser else { throw .userAlreadyAuthenticated }
        let service = registration ? options.registrationServiceName : options.authServiceName
        let reply = try client.call { () throws(TransportError) in try server.authenticate(.start(service: service)) }
        return try outcome(of: reply, authServiceId: random.uuid())
    }

    /// `FRSession.authenticate(resumeURI:)`: the app opened the link of a suspended journey.
    public func resume(suspendedId: String) throws(SDKError) -> JourneyOutcome {
        guard isStarted else { throw .notStarted }
        guard !hasUser else { throw .userAlreadyAuthenticated }
        let request = AuthenticateRequest(suspendedId: suspendedId)
        let reply = try client.call { () throws(TransportError) in try server.authenticate(request) }
        return try outcome(of: reply, authServiceId: currentNode?.authServiceId ?? random.uuid())
    }

    /// The identifier `FRDevice` keeps for this install; drawn on first use so that apps that
    /// never collect a profile see the same random sequence as before.
    public private(set) lazy var deviceIdentifier: String = random.bytes(20).map { byte in
        let digits = Array("0123456789abcdef")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
    }.joined()

    /// `node.next()`: submits the node with the values the app set on it.
    public func submit(_ node: Node) throws(SDKError) -> JourneyOutcome {
        guard isStarted else { throw .notStarted }
        // FRAuth returns the current user without calling AM when one is already logged in.
        if let accessToken { return .success(accessToken) }
        let reply = try client.call { () throws(TransportError) in try server.authenticate(.submit(node.requestPayload))
        }
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
        let token = try client.authorize(ssoToken: tokenId)
        tokens.store(token, ssoToken: tokenId, reason: .login)
        return .success(token)
    }

    // MARK: tokens

    public func freshAccessToken() throws(SDKError) -> AccessToken { try tokens.freshAccessToken() }

    public func userInfo() throws(SDKError) -> JSONValue {
        let token = try freshAccessToken()
        let reply = try client.call { () throws(TransportError) in try server.userInfo(accessToken: token.value) }
        guard reply.status == 200, case .object = reply.body else { throw OAuthClient.error(of: reply.body) }
        return reply.body
    }

    /// RFC 8693: trades `subjectToken` for a new token set, which becomes the native tokens.
    public func exchangeToken(_ subjectToken: String) throws(SDKError) -> AccessToken {
        let token = try client.exchange(subjectToken: subjectToken, sessionToken: tokens.ssoToken)
        tokens.store(token, ssoToken: tokens.ssoToken, reason: .exchange)
        return token
    }

    // MARK: logout

    /// `FRUser.logout()` called by JS: ends the SSO session (no endSession then), revokes the
    /// refresh token (or the access token), and forgets the user. Server errors are only logged,
    /// as in FRAuth.
    public func logout() { endSession(reason: .logout) }

    /// The same, started by the native side: observers are told (LOGOUT_EVENT). Returns whether
    /// there was a user to log out.
    @discardableResult
    public func nativeLogout() -> Bool { endSession(reason: .nativeLogout) }

    @discardableResult
    private func endSession(reason: TokenChangeReason) -> Bool {
        let (token, ssoToken) = (tokens.accessToken, tokens.ssoToken)
        guard token != nil || ssoToken != nil else { return false }
        // Forgotten first, then the server told: the server reports the session it ends to the
        // token manager, which must see a logout of its own, not another face's.
        let cleared = tokens.clear(reason: reason)
        if let ssoToken {
            let reply = try? server.logoutSession(ssoToken: ssoToken)
            if reply?.isSuccess != true { logInfo("session logout answered \(reply?.status ?? 0)") }
        } else if let idToken = token?.idToken {
            _ = try? server.endSession(idTokenHint: idToken, clientId: options.oauthClientId, at: .forgeRockSignOff)
        }
        if let token { client.revoke(token) }
        return cleared
    }
}
