import AuthBridgeCore
import IdentityServer

/// The default identity server: journeys, a user directory, SSO sessions and an OAuth issuer,
/// all in process, driven by the clock and random source it is given (docs/architecture.md).
public final class EmbeddedAM: IdentityServer {
    public let config: EmbeddedAMConfig
    public let users: UserDirectory
    public let sessions: SessionStore
    /// The realm's OAuth clients: the configured ones and those an import registered.
    public let clients: OAuthClientRegistry
    let clock: Clock
    let random: RandomSource
    /// Push messages awaiting an authenticator's answer, and the sender (`PushService`).
    public let push: PushService
    /// The emulated Google, Apple and Facebook: a party of their own, which the app's provider
    /// SDKs sign in with and the Social Provider Handler node checks tokens against.
    public let socialProviders: EmulatedSocialProviders
    let journeyEngine: JourneyEngine
    let oauth: OAuthIssuer

    public init(config: EmbeddedAMConfig = EmbeddedAMConfig(), clock: Clock, random: RandomSource) {
        self.config = config
        self.clock = clock
        self.random = random
        users = UserDirectory(random: random, iterations: config.passwordHashIterations)
        sessions = SessionStore(random: random, clock: clock, limits: config.sessionLimits)
        push = PushService(clock: clock, random: random)
        socialProviders = EmulatedSocialProviders(accounts: config.socialAccounts, clock: clock)
        journeyEngine = JourneyEngine(
            config: config, users: users, sessions: sessions, push: push, clock: clock, random: random)
        journeyEngine.socialProviders = socialProviders
        clients = OAuthClientRegistry(configured: config.clients)
        oauth = OAuthIssuer(
            config: config, clients: clients, users: users, sessions: sessions, clock: clock, random: random)
        if let demo = config.demoUser {
            try! users.add(
                username: demo.username, password: demo.password,
                attributes: [
                    "givenName": .string(demo.givenName), "sn": .string(demo.familyName), "mail": .string(demo.email),
                    "telephoneNumber": .string(demo.telephoneNumber),
                ])
        }
    }

    public var journeyNames: [String] { journeyEngine.journeys.names }
    /// The last journey that ended in failure, and why (`JourneyFailure`), since the start.
    public var lastFailure: JourneyFailure? { journeyEngine.lastFailure }

    /// The loaded journey of this name (a built-in is parsed now if it was not yet).
    func journey(named name: String) -> JourneyDefinition? { journeyEngine.journeys.named(name) }

    /// Adds a journey; one with the name of a built-in replaces it.
    public func add(journey: JourneyDefinition) { journeyEngine.add(journey) }

    /// The scenario's choice for a node AuthBridge cannot run (a script): `node` is its id or its
    /// display name. Returns the outcome now in force.
    public func setNodeOutcome(journey: String, node: String, outcome: String) throws(ScenarioError) {
        try journeyEngine.choose(journey: journey, node: node, choice: ScenarioChoice(outcome: outcome))
    }

    /// Applies a scenario file (docs/journeys.md); the first choice that fits no loaded node
    /// stops here, named.
    public func applyScenario(_ json: JSONValue) throws(ScenarioError) {
        for entry in try ScenarioFile.choices(json) {
            do {
                switch entry.entry {
                case .choice(let choice):
                    try journeyEngine.choose(journey: entry.journey, node: entry.node, choice: choice)
                case .response(let response):
                    try journeyEngine.respond(journey: entry.journey, node: entry.node, response: response)
                }
            } catch {
                throw ScenarioError(
                    param: error.param, reason: "journey \(entry.journey), node \"\(entry.node)\": \(error.reason)")
            }
        }
    }

    /// Whether any loaded journey has a node whose outcome a scenario decides.
    public var hasScenarioNodes: Bool { journeyEngine.journeys.hasScenarioNodes }

    /// One-time codes and resume links the server "sent".
    public var outbox: Outbox { journeyEngine.outbox }
    /// The journeys waiting on a client, soonest to time out first (the inspector).
    public var journeysInFlight: [JourneyInFlight] { journeyEngine.inFlight }
    /// The live OAuth grants, oldest first, then the last ones revoked (the inspector).
    public var grants: [GrantView] { oauth.grantViews().views }
    /// The `limit` live grants used last and the revoked ones kept, and how many live ones were
    /// left out (the inspector shows a page of them).
    public func grants(recent limit: Int) -> (views: [GrantView], leftOut: Int) { oauth.grantViews(recent: limit) }
    /// The journeys with nodes `setNodeOutcome` may choose for (the inspector).
    public var scriptedNodes: [ScriptedNodes] { journeyEngine.scriptedNodes }

    /// A one-time code another face of this server sent (a DaVinci flow's e-mail or SMS), put in
    /// the same outbox, so `emulator.lastOneTimeCode` reads it as it reads a journey's.
    public func deliver(_ code: Outbox.OneTimeCode) { journeyEngine.outbox.send(code) }

    // MARK: IdentityServer

    public func authenticate(_ request: AuthenticateRequest) -> ServerReply { journeyEngine.authenticate(request) }

    public func authorize(_ request: AuthorizeRequest) -> ServerReply { oauth.authorize(request) }

    public func token(form: [String: String]) -> ServerReply { oauth.token(form: form) }

    public func userInfo(accessToken: String) -> ServerReply { oauth.userInfo(accessToken: accessToken) }

    public func revoke(form: [String: String]) -> ServerReply { oauth.revoke(form: form) }

    public func introspect(form: [String: String]) -> ServerReply { oauth.introspect(form: form) }

    public func jwks() -> ServerReply { oauth.jwks() }

    /// Both sign-off endpoints are `/connect/endSession` here.
    public func endSession(idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint) -> ServerReply {
        oauth.endSession(idTokenHint: idTokenHint)
    }

    public func pushMessage(_ action: PushAction, body: JSONValue) -> ServerReply { push.handle(action, body: body) }

    public func logoutSession(ssoToken: String) -> ServerReply {
        guard sessions.end(ssoToken, cause: .logout) else {
            return ServerReply(status: 401, body: AMErrors.accessDenied)
        }
        return ServerReply(status: 200, body: ["result": "Successfully logged out"])
    }

    // MARK: test control

    /// How many refresh grants the server has honoured (for single-flight checks).
    public var refreshCount: Int { oauth.refreshCount }

    /// Makes new signing keys current (`emulator.rotateSigningKeys`): the `kid`s now signing, by
    /// algorithm, and the retired keys still published with when they go.
    public func rotateSigningKeys() -> SigningKeyRotation {
        let rotated = oauth.rotateKeys()
        return SigningKeyRotation(
            current: rotated.current.map { SigningKeyRotation.Key(kid: $0.kid, algorithm: $0.algorithm, until: nil) },
            retired: rotated.retired.map {
                SigningKeyRotation.Key(kid: oauth.kid(of: $0), algorithm: $0.algorithm, until: $0.until)
            })
    }

    /// The user an access token of ours names (expired tokens included).
    public func userId(ofAccessToken token: String) -> String? { oauth.userId(ofAccessToken: token) }

    /// Told of every SSO session that ends and why (`SessionStore.onEnded`).
    public var onSessionEnded: ((SSOSession, SessionEndCause) -> Void)? {
        get { sessions.onEnded }
        set { sessions.onEnded = newValue }
    }

    /// Told of every push notification the server sends, as Amazon SNS would be.
    public var onPushNotification: ((PushDelivery) -> Void)? {
        get { push.onNotification }
        set { push.onNotification = newValue }
    }

    /// An administrator expiring every access token issued to the user so far (their refresh
    /// tokens and sessions stay); returns how many live ones the server remembered.
    public func expireAccessTokens(userId: String) -> Int { oauth.expireAccessTokens(userId: userId) }

    /// An administrator revoking a user: their SSO sessions and OAuth grants end now; the app
    /// finds out when it next refreshes.
    public func revokeSessions(userId: String) -> (sessions: Int, grants: Int) {
        (sessions.endAll(userId: userId), oauth.endGrants(userId: userId))
    }

    /// Forgets every journey in progress or suspended (`emulator.reset`): their authIds no longer
    /// resume anything.
    public func dropJourneysInFlight() {
        journeyEngine.sessions.removeAll()
        journeyEngine.suspended.removeAll()
    }

    // MARK: saved state

    /// Whether the owners record what changes, for `--state-dir`; off without one, so nothing
    /// accumulates that nobody reads.
    public var tracksStateChanges: Bool {
        get { users.tracksChanges }
        set {
            users.tracksChanges = newValue
            sessions.tracksChanges = newValue
            oauth.tracksChanges = newValue
            clients.tracksChanges = newValue
        }
    }
}

/// Users, SSO sessions and OAuth grants: what an app relaunch must find again, under `server`
/// (`["users", "ada"]`, `["sessions", token]`, `["oauth", "grants", id]`), and the OAuth clients
/// an import registered (`["clients", id]`, only once there are some). Journeys in progress
/// are not kept.
extension EmbeddedAM: StateOwner {
    public var stateKey: String { "server" }

    public var stateEntries: [StateEntry] {
        users.stateEntries.map { $0.under("users") } + sessions.stateEntries.map { $0.under("sessions") }
            + oauth.stateEntries.map { $0.under("oauth") } + clients.stateEntries.map { $0.under("clients") }
    }

    public func takeStateEdits() -> [StateEdit] {
        users.takeStateEdits().map { $0.under("users") } + sessions.takeStateEdits().map { $0.under("sessions") }
            + oauth.takeStateEdits().map { $0.under("oauth") } + clients.takeStateEdits().map { $0.under("clients") }
    }

    public func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError) {
        func section(_ name: String) -> [StateEntry] {
            entries.filter { $0.path.first == name }.map { StateEntry(Array($0.path.dropFirst()), $0.value) }
        }
        func readers(_ name: String) throws(StateError) -> [StateReader] {
            try section(name).map { entry throws(StateError) in
                guard entry.path.count == 1 else { throw entry.unknown(under: "\(stateKey).\(name)") }
                return try entry.field(under: "\(stateKey).\(name)").reader()
            }
        }
        if let stray = entries.first(where: {
            !["users", "sessions", "oauth", "clients"].contains($0.path.first ?? "")
        }) {
            throw stray.unknown(under: stateKey)
        }
        try users.restore(try readers("users"))
        try sessions.restore(try readers("sessions"))
        try oauth.restoreState(section("oauth"), path: "\(stateKey).oauth")
        try clients.restore(try readers("clients"))
    }
}

extension EmbeddedAM {
    /// How much the server holds of what grows with traffic: for tests and `make bench` to
    /// check that it stays bounded.
    public struct Holdings: Equatable, Sendable {
        public var pendingJourneys: Int
        public var suspendedJourneys: Int
        public var grants: Int
        public var retiredRefreshTokens: Int
        public var revokedAccessTokens: Int
        public var sessions: Int
    }

    public var holdings: Holdings {
        Holdings(
            pendingJourneys: journeyEngine.sessions.count, suspendedJourneys: journeyEngine.suspended.count,
            grants: oauth.grants.count, retiredRefreshTokens: oauth.retiredRefreshTokens.count,
            revokedAccessTokens: oauth.revokedAccessTokens.count, sessions: sessions.count)
    }
}
