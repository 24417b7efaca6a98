import AuthBridgeCore
import IdentityServer

/// What the app passes for an OIDC client (`OidcClientConfig`): the registered client, its
/// redirect URI and scopes, how long before expiry a token counts as stale, and which token slot
/// of `PingStores` it uses.
public struct PingOidcConfig: Equatable, Sendable {
    public var clientId: String
    public var redirectUri: String
    public var scopes: [String]
    /// Seconds (`refreshThreshold`); 0 when the app gives none.
    public var refreshThreshold: Double
    public var storageKey: String

    public init(
        clientId: String, redirectUri: String, scopes: [String], refreshThreshold: Double = 0,
        storageKey: String = PingStores.defaultKey
    ) {
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.scopes = scopes
        self.refreshThreshold = refreshThreshold
        self.storageKey = storageKey
    }
}

/// The Ping SDK's `OidcClient` (ping-ios `Oidc/OidcClient.swift`, ping-android `oidc/OidcClient.kt`)
/// over `IdentityServer`. The browser agent is the caller's `agent`: it returns the SSO token to
/// authorize with (the journey's session, or a sign-in the emulator answers itself).
public final class PingOidcClient {
    public let config: PingOidcConfig
    private let server: OAuthServer
    private let clock: Clock
    private let stores: PingStores
    private let oauth: OAuthClient

    public init(config: PingOidcConfig, server: OAuthServer, clock: Clock, random: RandomSource, stores: PingStores) {
        self.config = config
        self.server = server
        self.clock = clock
        self.stores = stores
        var options = SDKOptions()
        options.oauthClientId = config.clientId
        options.oauthRedirectUri = config.redirectUri
        options.oauthScope = config.scopes.joined(separator: " ")
        oauth = OAuthClient(server: server, options: options, clock: clock, random: random)
    }

    public var storedToken: AccessToken? { stores.tokens[config.storageKey] }

    /// `token()`: an unexpired stored token as is; a stale one refreshed (a refused refresh
    /// revokes it and authorizes again); nothing stored: the agent authorizes.
    public func token(agent: () throws(PingSDKError) -> String) throws(PingSDKError) -> AccessToken {
        try tokenOrAuthorize { () throws(PingSDKError) in try authorize(ssoToken: try agent()) }
    }

    /// `token()` with the agent's whole authorize step: what a DaVinci user does with the code
    /// its flow ended with.
    public func tokenOrAuthorize(
        _ authorize: () throws(PingSDKError) -> AccessToken
    ) throws(PingSDKError) -> AccessToken {
        if let stored = storedToken {
            guard stored.isStale(now: clock.now, threshold: config.refreshThreshold) else { return stored }
            do {
                return try refresh()
            } catch {
                guard case .api = error else { throw error }
                revoke()
            }
        }
        return try authorize()
    }

    /// The authorization code flow with PKCE, the SSO token standing in for the browser's cookie.
    @discardableResult
    public func authorize(ssoToken: String) throws(PingSDKError) -> AccessToken {
        do {
            let token = try oauth.authorize(ssoToken: ssoToken)
            stores.tokens[config.storageKey] = token
            return token
        } catch {
            if case .transport(let message) = error { throw .network(message) }
            throw .authorize(error.message)
        }
    }

    /// The code grant for a code the caller already holds (a DaVinci flow's), with its PKCE verifier.
    @discardableResult
    public func exchange(code: String, verifier: String?) throws(PingSDKError) -> AccessToken {
        do {
            let token = try oauth.exchange(code: code, verifier: verifier, sessionToken: nil)
            stores.tokens[config.storageKey] = token
            return token
        } catch {
            if case .transport(let message) = error { throw .network(message) }
            throw .api(status: 400, message: error.message)
        }
    }

    /// `refresh()`: the refresh grant; the new token replaces the stored one.
    @discardableResult
    public func refresh() throws(PingSDKError) -> AccessToken {
        guard let stored = storedToken else { throw .authorize("No token to refresh") }
        do {
            let token = try oauth.refresh(stored, sessionToken: nil)
            stores.tokens[config.storageKey] = token
            return token
        } catch {
            if case .transport(let message) = error { throw .network(message) }
            throw .api(status: 400, message: error.message)
        }
    }

    /// `userinfo(cache:)`: with `cache`, the claims fetched last for this slot, else a fresh call
    /// with the current token.
    public func userinfo(cache: Bool, agent: () throws(PingSDKError) -> String) throws(PingSDKError) -> JSONValue {
        try userinfoOrAuthorize(cache: cache) { () throws(PingSDKError) in try authorize(ssoToken: try agent()) }
    }

    public func userinfoOrAuthorize(
        cache: Bool, _ authorize: () throws(PingSDKError) -> AccessToken
    ) throws(PingSDKError) -> JSONValue {
        if cache, let cached = stores.userInfo[config.storageKey] { return cached }
        let token = try tokenOrAuthorize(authorize)
        let reply: ServerReply
        do {
            reply = try server.userInfo(accessToken: token.value)
        } catch {
            throw .network(error.message)
        }
        guard reply.status == 200, case .object = reply.body else {
            throw .api(status: reply.status, message: reply.body["error_description"]?.stringValue ?? "userinfo failed")
        }
        stores.userInfo[config.storageKey] = reply.body
        return reply.body
    }

    /// `revoke()`: forgets the stored token first, then tells the server (its refusal is ignored).
    public func revoke() {
        guard let stored = storedToken else { return }
        stores.tokens[config.storageKey] = nil
        stores.userInfo[config.storageKey] = nil
        oauth.revoke(stored)
    }

    /// `endSession()`: revoke, then sign off with the ID token at discovery's
    /// `end_session_endpoint` (never `ping_end_idp_session_endpoint`: the Ping SDK's OIDC client
    /// does not read it). True when the sign-off succeeded (nothing to end is a success).
    @discardableResult
    public func endSession() -> Bool {
        let idToken = storedToken?.idToken
        revoke()
        guard let idToken else { return true }
        let reply = try? server.endSession(idTokenHint: idToken, clientId: config.clientId, at: .endSessionEndpoint)
        return reply?.isSuccess == true
    }
}
