import AuthBridgeCore
import NativeModules
import TestSupport
import Testing

/// RNPingOidc as the successor SDK's JS calls it (docs/ping-modules.md): clients created
/// synchronously, the browser step emulated, token maps and typed rejections.
@Suite struct RNPingOidcTests {
    static let config: JSONValue = [
        "clientId": "ReactNativeOAuthClient", "redirectUri": "https://com.example.reactnative.todo/callback",
        "scopes": ["openid", "profile", "email"],
        "discoveryEndpoint": "http://localhost:8080/am/oauth2/realms/alpha/.well-known/openid-configuration",
    ]

    static func webClient(_ flavor: Flavor = .reactNativeIOS) throws -> (ModuleHarness, JSONValue) {
        let app = ModuleHarness(flavor: flavor)
        let client = try app.call("RNPingOidc.createClient", config)
        return (app, try app.call("RNPingOidc.createWebClient", client))
    }

    static func code(_ error: BridgeError?) -> (String, String?, String)? {
        switch error {
        case .typedRejection(let code, let message, let userInfo)?:
            return (code, userInfo["type"]?.stringValue, message)
        case .rejection(let code, let message, _)?: return (code, nil, message)
        default: return nil
        }
    }

    @Test func authorizeSignsInTheTestUserThenTokensUserInfoAndLogoutWork() throws {
        let (app, web) = try Self.webClient()
        #expect(try app.call("RNPingOidc.hasUser", web) == false)
        #expect(try app.call("RNPingOidc.authorize", web, [:]) == ["type": "success"])
        #expect(try app.call("RNPingOidc.hasUser", web) == true)
        let token = try app.call("RNPingOidc.token", web)
        #expect(token["accessToken"]?.stringValue != nil && token["idToken"]?.stringValue != nil)
        #expect(token["tokenExpiry"]?.intValue == Int64(app.perform { $0.clock.now }) + 3599)
        #expect(try app.call("RNPingOidc.userinfo", web, false)["preferred_username"] == "demo")
        #expect(try app.call("RNPingOidc.refresh", web)["accessToken"] != token["accessToken"])
        #expect(try app.call("RNPingOidc.logout", web) == .null)
        #expect(try app.call("RNPingOidc.hasUser", web) == false)
    }

    /// iOS falls back to the base client's user: its token needs an agent it does not have, and
    /// revoke/logout have nothing to do. Android has no user to ask.
    @Test func withoutAUserAndroidRefusesAsStateIOSAsksTheBaseClient() throws {
        let (ios, iosWeb) = try Self.webClient(.reactNativeIOS)
        #expect(
            Self.code(ios.rejection("RNPingOidc.token", iosWeb))! == (
                "OIDC_TOKEN_ERROR", "auth_error", "Agent not configured"
            ))
        #expect(try ios.call("RNPingOidc.revoke", iosWeb) == .null)
        #expect(try ios.call("RNPingOidc.logout", iosWeb) == .null)
        let (android, androidWeb) = try Self.webClient(.reactNativeAndroid)
        #expect(
            Self.code(android.rejection("RNPingOidc.revoke", androidWeb))!
                == ("OIDC_REVOKE_ERROR", "state_error", "No authenticated user is available for this OIDC web client"))
    }

    /// Android keeps the user a web client authorized (the flow's cache) until logout or dispose:
    /// after `revoke` it still has one, and `logout` resolves; the next logout, a new web client
    /// or a restart has none. The cached user's agent is the used auth-code agent.
    @Test func androidKeepsTheAuthorizedUserAfterRevokeUntilLogout() throws {
        let (app, web) = try Self.webClient(.reactNativeAndroid)
        #expect(try app.call("RNPingOidc.authorize", web, [:]) == ["type": "success"])
        #expect(try app.call("RNPingOidc.revoke", web) == .null)
        #expect(try app.call("RNPingOidc.hasUser", web) == true)
        #expect(
            Self.code(app.rejection("RNPingOidc.token", web))! == (
                "OIDC_TOKEN_ERROR", "auth_error", "Auth code already used, please start authorization flow again."
            ))
        let base = try app.call("RNPingOidc.createClient", Self.config)
        let other = try app.call("RNPingOidc.createWebClient", base)
        #expect(try app.call("RNPingOidc.hasUser", other) == false)
        #expect(Self.code(app.rejection("RNPingOidc.logout", other))?.1 == "state_error")
        #expect(try app.call("RNPingOidc.logout", web) == .null)
        #expect(try app.call("RNPingOidc.hasUser", web) == false)
        #expect(
            Self.code(app.rejection("RNPingOidc.logout", web))! == (
                "OIDC_LOGOUT_ERROR", "state_error", "No authenticated user is available for this OIDC web client"
            ))
    }

    @Test func androidForgetsTheCachedUserWithItsWebClientAndIOSHasNone() throws {
        let (android, web) = try Self.webClient(.reactNativeAndroid)
        _ = try android.call("RNPingOidc.authorize", web, [:])
        _ = try android.call("RNPingOidc.revoke", web)
        #expect(try android.call("RNPingOidc.disposeWebClient", web) == .null)
        #expect(Self.code(android.rejection("RNPingOidc.hasUser", web))?.0 == "OIDC_HAS_USER_ERROR")
        let (ios, iosWeb) = try Self.webClient(.reactNativeIOS)
        _ = try ios.call("RNPingOidc.authorize", iosWeb, [:])
        _ = try ios.call("RNPingOidc.revoke", iosWeb)
        #expect(try ios.call("RNPingOidc.hasUser", iosWeb) == false)
        #expect(Self.code(ios.rejection("RNPingOidc.token", iosWeb))?.2 == "Agent not configured")
        #expect(try ios.call("RNPingOidc.logout", iosWeb) == .null)
    }

    /// A user found from stored tokens is cached too (`prepareUser`): a second web client of the
    /// same storage that saw the tokens keeps its user after the first one revokes them.
    @Test func androidCachesAUserFoundFromStoredTokens() throws {
        let (app, web) = try Self.webClient(.reactNativeAndroid)
        _ = try app.call("RNPingOidc.authorize", web, [:])
        let base = try app.call("RNPingOidc.createClient", Self.config)
        let second = try app.call("RNPingOidc.createWebClient", base)
        #expect(try app.call("RNPingOidc.hasUser", second) == true)
        _ = try app.call("RNPingOidc.revoke", web)
        #expect(try app.call("RNPingOidc.hasUser", second) == true)
        #expect(try app.call("RNPingOidc.logout", second) == .null)
    }

    @Test func unknownIdsAreStateErrorsNamingTheId() throws {
        let app = ModuleHarness()
        #expect(
            Self.code(app.rejection("RNPingOidc.clientToken", "x"))! == (
                "OIDC_TOKEN_ERROR", "state_error", "No OIDC client found for id x"
            ))
        #expect(Self.code(app.rejection("RNPingOidc.clientEndSession", "x"))?.0 == "OIDC_LOGOUT_ERROR")
        #expect(Self.code(app.rejection("RNPingOidc.authorize", "w", [:]))?.2 == "No OIDC web client found for id w")
        #expect(try app.call("RNPingOidc.disposeWebClient", "w") == .null)
    }

    @Test func aBadConfigThrowsAsEachPlatformThrows() {
        let ios = ModuleHarness(flavor: .reactNativeIOS)
        #expect(
            Self.code(ios.rejection("RNPingOidc.createClient", ["redirectUri": "x"]))!
                == (
                    "NSInvalidArgumentException", nil,
                    "Invalid OIDC client config: Missing required parameter: clientId"
                ))
        let android = ModuleHarness(flavor: .reactNativeAndroid)
        let noDiscovery: JSONValue = ["clientId": "c", "redirectUri": "r", "scopes": ["openid"]]
        #expect(
            Self.code(android.rejection("RNPingOidc.createClient", noDiscovery))! == (
                "IllegalArgumentException", nil, "Missing discoveryEndpoint or openId"
            ))
    }

    @Test func aHostMayChooseTheIdSoItCanAnswerSynchronously() throws {
        let app = ModuleHarness()
        #expect(try app.call("RNPingOidc.createClient", Self.config, "client-1") == "client-1")
        #expect(try app.call("RNPingOidc.createWebClient", "client-1", "web-1") == "web-1")
        #expect(
            app.rejection("RNPingOidc.createClient", Self.config, "client-1")
                == .invalidParams(
                    reason: "the host-chosen id must be a new, non-empty string, got \"client-1\"", param: "1"))
    }

    @Test func aJourneySessionIsTheBrowsersCookie() throws {
        let (app, web) = try Self.webClient()
        _ = app.perform { world in (try? world.addUser(username: "alice", password: "Secr3t!!", attributes: [:])) != nil
        }
        let journey = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        _ = try app.call("RNPingJourney.start", journey, "Login")
        let alice: JSONValue = [
            "callbacks": [
                ["type": "NameCallback", "value": "alice"], ["type": "PasswordCallback", "value": "Secr3t!!"],
            ]
        ]
        #expect(try app.call("RNPingJourney.next", journey, "", alice)["type"] == "SuccessNode")
        #expect(try app.call("RNPingOidc.authorize", web, [:]) == ["type": "success"])
        // Alice, not the test user: the journey's session stood in for the browser's cookie.
        #expect(try app.call("RNPingOidc.userinfo", web, false)["preferred_username"] == "alice")
    }

    /// endSession ends the AM session too; the browser's cookie then counts for nothing and the
    /// login page asks again, so authorize still succeeds with a new session.
    @Test func afterEndSessionAuthorizeSignsInAgain() throws {
        let app = ModuleHarness()
        let client = try app.call("RNPingOidc.createClient", Self.config)
        let web = try app.call("RNPingOidc.createWebClient", client)
        #expect(try app.call("RNPingOidc.authorize", web, [:]) == ["type": "success"])
        #expect(try app.call("RNPingOidc.clientEndSession", client) == true)
        #expect(try app.call("RNPingOidc.hasUser", web) == false)
        #expect(try app.call("RNPingOidc.authorize", web, [:]) == ["type": "success"])
        #expect(try app.call("RNPingOidc.userinfo", web, false)["preferred_username"] == "demo")
    }
}
