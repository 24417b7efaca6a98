import AuthBridgeCore
import IdentityServer

/// The Ping SDK's `Journey` (ping-ios `Journey/Journey/Journey.swift`, ping-android
/// `journey/Journey.kt`) over `IdentityServer`: starts and continues journeys, keeps the SSO
/// session a success gives, and, when OIDC is configured, turns that session into a user with
/// tokens (`Journey/Module/Oidc.swift`, `journey/User.kt`).
public final class PingJourneyClient {
    public let platform: Platform
    public let sessionKey: String
    /// The OIDC module; nil when the app configured no OIDC (then there is never a user).
    public let oidc: PingOidcClient?
    private let server: IdentityServer
    private let stores: PingStores
    /// The extension callback types registered now (asked at each node: modules register theirs
    /// as they are built).
    private let extensions: () -> Set<CallbackType>

    public init(
        platform: Platform, server: IdentityServer, stores: PingStores, sessionKey: String, oidc: PingOidcClient?,
        extensions: @escaping () -> Set<CallbackType> = { [] }
    ) {
        self.extensions = extensions
        self.platform = platform
        self.server = server
        self.stores = stores
        self.sessionKey = sessionKey
        self.oidc = oidc
    }

    // MARK: journeys

    /// `journey.start(name) { forceAuth; noSession }`. The stored session goes along as AM's
    /// session cookie (ping-ios `Journey/Module/Session.swift`, ping-android
    /// `journey/module/Session.kt`), and `ForceAuth=true` when asked (ping-ios
    /// `Journey/Module/Request.swift`, ping-android `journey/module/RequestUrl.kt`): the server
    /// answers a session that already satisfies the journey at once, unless forced.
    public func start(_ name: String, forceAuth: Bool, noSession: Bool) -> PingNode {
        var request = AuthenticateRequest.start(service: name)
        request.noSession = noSession
        request.forceAuth = forceAuth
        request.ssoToken = session?.value
        return send(request)
    }

    /// `ContinueNode.next()`: posts the node with the values set on its callbacks.
    public func next(_ node: PingContinueNode) -> PingNode {
        var request = AuthenticateRequest.submit(node.payload)
        for callback in node.callbacks { request.parameters.merge(callback.requestParameters) { _, new in new } }
        return send(request)
    }

    /// `journey.resume(uri)` with the URI's `suspendedId`; none: iOS fails the node, Android
    /// starts with no tree (the realm's default, which the embedded server does not have).
    public func resume(suspendedId: String?) -> PingNode {
        guard let suspendedId else {
            switch platform {
            case .ios: return .failure(message: "Invalid URI or missing suspendedId")
            case .android: return send(AuthenticateRequest())
            }
        }
        return send(AuthenticateRequest(suspendedId: suspendedId))
    }

    private func send(_ request: AuthenticateRequest) -> PingNode {
        let reply: ServerReply
        do {
            reply = try server.authenticate(request)
        } catch {
            return .failure(message: error.message)
        }
        let node = PingNode.from(reply, platform: platform, extensions: extensions())
        if case .success(let body) = node, let tokenId = body["tokenId"]?.stringValue, !tokenId.isEmpty {
            stores.sessions[sessionKey] = PingStores.SSOToken(
                value: tokenId, successUrl: body["successUrl"]?.stringValue ?? "",
                realm: body["realm"]?.stringValue ?? "")
        }
        return node
    }

    // MARK: session and user

    /// `journey.session()`: the stored SSO token.
    public var session: PingStores.SSOToken? { stores.sessions[sessionKey] }

    /// Whether `journey.user()` gives a user: OIDC is configured and there is a session or a
    /// stored token.
    public var hasUser: Bool { oidc != nil && (session != nil || oidc?.storedToken != nil) }

    /// The browser-less agent of the journey's OIDC module: the session is the cookie.
    public func sessionAgent() throws(PingSDKError) -> String {
        guard let session else { throw .authorize("Please start journey to retrieve session") }
        return session.value
    }

    /// `user.logout()`: AM's session logout, then the OIDC end-session (revoke + sign-off),
    /// then the session is forgotten. Server refusals are only logged.
    public func logout() {
        if let session {
            let reply = try? server.logoutSession(ssoToken: session.value)
            if reply?.isSuccess != true { logInfo("session logout answered \(reply?.status ?? 0)") }
        }
        oidc?.endSession()
        stores.sessions[sessionKey] = nil
    }
}
