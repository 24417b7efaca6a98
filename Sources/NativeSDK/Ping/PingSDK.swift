import AuthBridgeCore
import IdentityServer

/// The successor SDK's side of the world: the server it talks to, its clock and random source,
/// its shared storages, and the platform whose SDK answers. The Ping modules build their journey
/// and OIDC clients from it, so every client sees one server and the default storages.
public final class PingSDK {
    public let platform: Platform
    public let stores: PingStores
    let server: IdentityServer
    /// The PingOne environment DaVinci flows run on (nil when none is served).
    let pingOne: PingOneServer?
    let clock: Clock
    let random: RandomSource
    /// Who signs in on the emulated browser page (the embedded server's test user), if anyone.
    public let testUser: (username: String, password: String)?
    /// The Post Logout Redirect URIs the server's OAuth clients accept, which the emulated
    /// browser follows after an end session (`browse`); nil when a remote tenant decides.
    public let postLogoutRedirectUris: [String]?
    /// The callback types the linked extension packages register beside the core ones (each
    /// module registers its own when it is built, as `PingFido`, `PingBinding`… do on a device):
    /// a journey's node keeps these, so the extension module can answer them.
    public private(set) var extensionCallbackTypes: Set<CallbackType> = []

    public func registerCallbacks(_ types: Set<CallbackType>) { extensionCallbackTypes.formUnion(types) }

    public init(
        platform: Platform, server: IdentityServer, clock: Clock, random: RandomSource,
        stores: PingStores = PingStores(),
        testUser: (username: String, password: String)? = nil, postLogoutRedirectUris: [String]? = [],
        pingOne: PingOneServer? = nil
    ) {
        self.pingOne = pingOne
        self.testUser = testUser
        self.postLogoutRedirectUris = postLogoutRedirectUris
        self.stores = stores
        self.platform = platform
        self.server = server
        self.clock = clock
        self.random = random
    }

    /// A registry id (`SimpleRegistry`): iOS `UUID().uuidString` is upper case, Android's
    /// `UUID.randomUUID().toString()` lower case.
    public func newId() -> String {
        let id = random.uuid()
        return platform == .ios ? id : id.lowercased()
    }

    /// The SDK's clock, in Unix seconds.
    public var now: Double { clock.now }

    public func journey(sessionKey: String = PingStores.defaultKey, oidc: PingOidcConfig?) -> PingJourneyClient {
        PingJourneyClient(
            platform: platform, server: server, stores: stores, sessionKey: sessionKey, oidc: oidc.map(oidcClient),
            extensions: { [unowned self] in self.extensionCallbackTypes })
    }

    public func davinci(_ config: PingDavinciConfig) -> PingDavinciClient {
        PingDavinciClient(
            config: config, platform: platform, server: pingOne, clock: clock, random: random, stores: stores)
    }

    public func oidcClient(_ config: PingOidcConfig) -> PingOidcClient {
        PingOidcClient(config: config, server: server, clock: clock, random: random, stores: stores)
    }

    /// The browser step of `authorize`, without a browser: the SSO session the browser would
    /// carry (the default session storage, where a journey's success put it), else the sign-in
    /// page answered for `username`/`password` by running `journey` (a name and a password page,
    /// as the embedded server's Login asks). A session the server no longer honours (ended by a
    /// logout or endSession) is a cookie AM ignores: the page asks again. The new session is kept
    /// as the browser keeps its cookie.
    public func browserSession(journey: String = "Login") throws(PingSDKError) -> String {
        if let session = stores.sessions[PingStores.defaultKey],
            (try? server.validateSession(ssoToken: session.value))?.body["valid"] == true
        {
            return session.value
        }
        guard let (username, password) = testUser else {
            throw .authorize("No SSO session and no test user to sign in on the login page")
        }
        let client = self.journey(oidc: nil)
        var node = client.start(journey, forceAuth: false, noSession: false)
        for _ in 0..<4 {
            switch node {
            case .next(var step):
                for i in step.callbacks.indices {
                    switch step.callbacks[i].type {
                    case .name: step.callbacks[i].state["name"] = .string(username)
                    case .password: step.callbacks[i].state["password"] = .string(password)
                    default: break
                    }
                }
                node = client.next(step)
            case .success:
                guard let session = client.session else { throw .authorize("The sign-in page gave no session") }
                return session.value
            case .error(_, let message, _): throw .authorize("The sign-in page refused the test user: \(message)")
            case .failure(let message): throw .authorize(message)
            }
        }
        throw .authorize("The sign-in page asked more than a username and a password")
    }
}
