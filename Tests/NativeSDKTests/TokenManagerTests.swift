import AuthBridgeCore
import IdentityServer
import Testing

@testable import NativeSDK

/// A token endpoint that answers as told and counts calls.
final class ScriptedTokenServer: IdentityServer {
    enum Answer { case tokens, refused, unreachable }
    var answer = Answer.tokens
    private(set) var tokenCalls = 0

    func token(form: [String: String]) throws(TransportError) -> ServerReply {
        tokenCalls += 1
        switch answer {
        case .unreachable: throw TransportError("connection refused")
        case .refused:
            return ServerReply(status: 400, body: ["error": "invalid_grant", "error_description": "grant is invalid"])
        case .tokens:
            return ServerReply(
                status: 200,
                body: [
                    "access_token": .string("access-\(tokenCalls)"), "refresh_token": .string("refresh-\(tokenCalls)"),
                    "scope": "openid", "token_type": "Bearer", "expires_in": 3599,
                ])
        }
    }

    func authenticate(_ request: AuthenticateRequest) -> ServerReply { ServerReply(status: 500) }
    func authorize(_ request: AuthorizeRequest) -> ServerReply {
        ServerReply(status: 400, body: ["error": "interaction_required"])
    }
    func userInfo(accessToken: String) -> ServerReply { ServerReply(status: 500) }
    func revoke(form: [String: String]) -> ServerReply { ServerReply(status: 200) }
    private(set) var endSessions: [EndSessionEndpoint] = []
    func endSession(idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint) -> ServerReply {
        endSessions.append(endpoint)
        return ServerReply(status: 200)
    }
    func logoutSession(ssoToken: String) -> ServerReply { ServerReply(status: 200) }
    func validateSession(ssoToken: String) -> ServerReply { ServerReply(status: 200, body: ["valid": false]) }
    func sessionInfo(ssoToken: String, refresh: Bool) -> ServerReply { ServerReply(status: 401) }
    func introspect(form: [String: String]) -> ServerReply { ServerReply(status: 200, body: ["active": false]) }
    func jwks() -> ServerReply { ServerReply(status: 200, body: ["keys": []]) }
    func devices(_ request: DevicesRequest) -> ServerReply { ServerReply(status: 401, body: AMErrors.accessDenied) }
    func pushMessage(_ action: PushAction, body: JSONValue) -> ServerReply { ServerReply(status: 400) }
}

/// The credentials' one owner: refresh before expiry, fallback and logout when refused. (That
/// fifty callers at once cause one refresh is the Host's guarantee: HostTests.)
@Suite struct TokenManagerRefresh {
    let server = ScriptedTokenServer()
    let clock = VirtualClock()
    let manager: TokenManager
    var reasons: [TokenChangeReason] { recorded.reasons }
    private let recorded = Reasons()

    final class Reasons { var reasons: [TokenChangeReason] = [] }

    init() {
        let client = OAuthClient(
            server: server, options: SDKOptions(), clock: clock, random: SeededRandomSource(seed: 1))
        manager = TokenManager(client: client, clock: clock, threshold: 60)
        manager.adopt(
            AccessToken(
                value: "access-0", refreshToken: "refresh-0", idToken: nil, tokenType: "Bearer",
                expiresAt: Int64(clock.now) + 30, scope: "openid", now: clock.now))
        manager.observer = { [recorded] change in recorded.reasons.append(change.reason) }
    }

    @Test func aTokenNearExpiryIsRefreshedOnceThenServedFresh() throws {
        #expect(try manager.freshAccessToken().value == "access-1")
        #expect(try manager.freshAccessToken().value == "access-1")
        #expect(server.tokenCalls == 1)
        #expect(reasons == [.refresh])
        #expect(manager.generation == 2)
    }

    @Test func aTokenFarFromExpiryIsServedAsItIs() throws {
        manager.adopt(
            AccessToken(
                value: "long", refreshToken: "r", idToken: nil, tokenType: "Bearer", expiresAt: Int64(clock.now) + 3600,
                scope: "openid", now: clock.now))
        #expect(try manager.freshAccessToken().value == "long")
        #expect(server.tokenCalls == 0)
    }

    @Test func aRefusedRefreshWithoutSessionLogsOutOnce() {
        server.answer = .refused
        #expect(throws: SDKError.authenticationRequired) { try manager.freshAccessToken() }
        #expect(throws: SDKError.noCurrentUser) { try manager.freshAccessToken() }
        #expect(server.tokenCalls == 1)
        #expect(reasons == [.refreshRejected])
        #expect(manager.accessToken == nil)
    }

    @Test func anUnreachableServerChangesNothing() {
        server.answer = .unreachable
        #expect(throws: SDKError.transport("connection refused")) { try manager.freshAccessToken() }
        #expect(manager.accessToken?.value == "access-0")
        #expect(reasons.isEmpty)
    }
}

/// Hostile saved state for the native SDKs' owners: every value read as the type it was
/// written with, the member at fault named.
@Suite struct NativeSavedState {
    static let token: JSONValue = [
        "value": "at", "expiresIn": 3600, "scope": "openid", "tokenType": "Bearer", "refreshToken": "rt",
        "idToken": .null,
        "authenticatedAt": 1_767_225_600, "sessionToken": .null,
    ]

    static func with(_ object: JSONValue, _ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var members) = object else { return object }
        members[key] = value
        return .object(members)
    }

    @Test(
        arguments: [
            (
                with(["generation": 1, "tokens": token, "ssoToken": "sso"], "generation", "1"),
                "native.generation: expected an integer, found string"
            ),
            (
                ["generation": 1, "tokens": with(token, "expiresIn", "3600")],
                "native.tokens.expiresIn: expected an integer, found string"
            ),
            (
                ["generation": 1, "tokens": with(token, "refreshToken", 5)],
                "native.tokens.refreshToken: expected a string or null, found integer"
            ),
            (["generation": 1, "tokens": "at"], "native.tokens: expected an object, found string"),
            (
                ["generation": 1, "ssoToken": ["value": "sso"]],
                "native.ssoToken: expected a string or null, found object"
            ),
        ] as [(JSONValue, String)])
    func theTokenManagerRefusesAWrongType(saved: JSONValue, message: String) {
        let client = OAuthClient(
            server: ScriptedTokenServer(), options: SDKOptions(), clock: VirtualClock(),
            random: SeededRandomSource(seed: 1))
        let manager = TokenManager(client: client, clock: VirtualClock(), threshold: 60)
        #expect(throws: StateError(message)) { try manager.restoreState([StateEntry([], saved)], rollingBack: false) }
    }

    @Test(
        arguments: [
            (
                ["sessions": [], "tokens": [["slot": "a", "token": with(token, "authenticatedAt", "now")]]],
                "ping.tokens[0].token.authenticatedAt: expected a number, found string"
            ),
            (
                ["sessions": [["slot": 1, "value": "v", "successUrl": "", "realm": "alpha"]], "tokens": []],
                "ping.sessions[0].slot: expected a string, found integer"
            ),
            (
                ["sessions": [], "tokens": [["slot": "a", "token": token], ["slot": "a", "token": token]]],
                "ping.tokens[1].slot: a appears twice"
            ),
            (["sessions": "none", "tokens": []], "ping.sessions: expected an array, found string"),
        ] as [(JSONValue, String)])
    func thePingStoresRefuseAWrongType(saved: JSONValue, message: String) {
        #expect(throws: StateError(message)) {
            try PingStores().restoreState([StateEntry([], saved)], rollingBack: false)
        }
    }
}

/// Which sign-off endpoint each SDK generation asks for: a tenant's discovery may list two
/// (RemoteAM's TenantEndpoints picks the URL), and the embedded server answers both alike.
@Suite struct SignOffEndpoints {
    let server = ScriptedTokenServer()
    let clock = VirtualClock()
    let token: AccessToken

    init() {
        token = AccessToken(
            value: "access-0", refreshToken: "refresh-0", idToken: "id-0", tokenType: "Bearer",
            expiresAt: Int64(clock.now) + 3600, scope: "openid", now: clock.now)
    }

    @Test func theForgeRockSDKsLogoutWithoutASessionSignsOffAsFRAuthDoes() {
        let sdk = AuthSDK(server: server, options: SDKOptions(), clock: clock, random: SeededRandomSource(seed: 1))
        sdk.tokens.adopt(token)
        sdk.logout()
        #expect(server.endSessions == [.forgeRockSignOff])
    }

    @Test func thePingOIDCClientSignsOffAtEndSessionEndpoint() {
        let stores = PingStores()
        let config = PingOidcConfig(clientId: "c", redirectUri: "a:/cb", scopes: ["openid"])
        let client = PingOidcClient(
            config: config, server: server, clock: clock, random: SeededRandomSource(seed: 1), stores: stores)
        stores.tokens[config.storageKey] = token
        #expect(client.endSession())
        #expect(server.endSessions == [.endSessionEndpoint])
    }
}
