import AuthBridgeCore
import EmbeddedAM
import TestSupport
import Testing

@testable import NativeModules
@testable import NativeSDK

/// Token sync as the host sees it: bridge calls in, events out, in order.
@Suite struct TokenSyncEvents {
    static func loggedIn(ready: Bool) throws -> ModuleHarness {
        let bridge = ModuleHarness()
        if ready { _ = try bridge.call("tokenSyncReady") }
        _ = try bridge.call("start")
        _ = try bridge.login()
        return bridge
    }

    @Test func nothingIsSentBeforeReadyThenTheCurrentStateOnce() throws {
        let bridge = try Self.loggedIn(ready: false)
        #expect(bridge.takeEvents().isEmpty)
        _ = try bridge.call("tokenSyncReady")
        let events = bridge.takeEvents()
        #expect(events.map(\.0) == ["TOKEN_EVENT"])
        #expect(events[0].1["reason"] == "ready")
        #expect(events[0].1["generation"] == 1)
        #expect(events[0].1["accessToken"]?.stringValue == bridge.perform { $0.sdk.accessToken?.value })
    }

    @Test func readyWithoutTokensAsksJSForItsTokens() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("tokenSyncReady")
        let events = bridge.takeEvents()
        #expect(events.map(\.0) == ["TOKEN_REQUEST_EVENT"])
        #expect(events[0].1["reason"] == "ready")
        #expect(events[0].1["requestId"]?.stringValue?.count == 36)
    }

    @Test func aTokenRequestBeforeReadyIsHeldThenDelivered() throws {
        let bridge = try Self.loggedIn(ready: false)
        let request = bridge.perform { $0.requestToken() }
        #expect(!request.delivered)
        #expect(bridge.takeEvents().isEmpty)
        _ = try bridge.call("tokenSyncReady")
        let events = bridge.takeEvents()
        #expect(events.map(\.0) == ["TOKEN_EVENT", "TOKEN_REQUEST_EVENT"])
        #expect(events[1].1["requestId"]?.stringValue == request.requestId)
        #expect(bridge.perform { $0.sync.pendingTokenRequest } == nil)
    }

    @Test func loginAfterReadySendsATokenEventWithItsReason() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("tokenSyncReady")
        _ = bridge.takeEvents()
        _ = try bridge.call("start")
        _ = try bridge.login()
        let events = bridge.takeEvents()
        #expect(events.map(\.0) == ["TOKEN_EVENT"])
        #expect(events[0].1["reason"] == "login")
        #expect(
            events[0].1.objectValue?.keys == [
                "accessToken", "refreshToken", "idToken", "tokenType", "expiresAt", "scope", "generation", "reason",
            ])
    }

    @Test func jsLogoutIsNotEchoed() throws {
        let bridge = try Self.loggedIn(ready: true)
        _ = bridge.takeEvents()
        _ = try bridge.call("logout")
        #expect(bridge.takeEvents().isEmpty)
        #expect(bridge.perform { $0.sdk.tokens.generation } == 2)
    }

    @Test func nativeLogoutIsSentOnce() throws {
        let bridge = try Self.loggedIn(ready: true)
        _ = bridge.takeEvents()
        #expect(bridge.perform { $0.nativeLogout() })
        #expect(!bridge.perform { $0.nativeLogout() })
        let events = bridge.takeEvents()
        #expect(events.map(\.0) == ["LOGOUT_EVENT"])
        #expect(events[0].1 == ["reason": "native_logout", "generation": 2])
    }

    @Test func tokenUpdateStoresOnlyADifferentMapAndNeverEchoes() throws {
        let bridge = try Self.loggedIn(ready: true)
        let sent = bridge.takeEvents().last!.1
        // JS pushes back exactly what it was sent: nothing changes.
        _ = try bridge.call("tokenUpdate", sent)
        #expect(bridge.perform { $0.sdk.tokens.generation } == 1)
        var other = sent.objectValue!
        other["accessToken"] = "from-js"
        _ = try bridge.call("tokenUpdate", .object(other))
        #expect(bridge.perform { $0.sdk.tokens.generation } == 2)
        #expect(bridge.perform { $0.sdk.accessToken?.value } == "from-js")
        #expect(bridge.takeEvents().isEmpty)
        // The SSO session is native's and survives JS's tokens.
        #expect(bridge.perform { $0.sdk.tokens.ssoToken } != nil)
    }

    static let badMaps: [(JSONValue, String)] = [
        (["refreshToken": "r", "expiresAt": 1], "0.accessToken"),
        (["accessToken": 5, "refreshToken": "r", "expiresAt": 1], "0.accessToken"),
        (["accessToken": "a", "expiresAt": 1], "0.refreshToken"),
        (["accessToken": "a", "refreshToken": "r"], "0.expiresAt"),
        (["accessToken": "a", "refreshToken": "r", "expiresAt": -1], "0.expiresAt"),
        (["accessToken": "a", "refreshToken": "r", "expiresAt": 1, "scope": ["openid"]], "0.scope"),
        (["accessToken": "a", "refreshToken": "r", "expiresAt": 1, "access_token": "a"], "0.access_token"),
        ("a string", "0"),
    ]

    @Test(arguments: badMaps)
    func aMalformedMapNamesTheBadKey(map: JSONValue, param: String) throws {
        let bridge = ModuleHarness()
        guard case .invalidParams(let reason, let named, _)? = bridge.rejection("tokenUpdate", map) else {
            Issue.record("expected invalid params")
            return
        }
        #expect(named == param)
        if param != "0" { #expect(reason.contains(param.dropFirst(2))) }
        #expect(bridge.perform { $0.sdk.tokens.generation } == 0)
    }

    @Test func refreshAcrossTheThresholdSendsATokenEvent() throws {
        let bridge = try Self.loggedIn(ready: true)
        let before = bridge.perform { $0.sdk.accessToken! }
        _ = bridge.takeEvents()
        bridge.advanceClock(by: Double(before.expiresIn) - 61)
        _ = try bridge.call("getAccessToken")
        #expect(bridge.takeEvents().isEmpty)
        bridge.advanceClock(by: 2)
        _ = try bridge.call("getAccessToken")
        let events = bridge.takeEvents()
        #expect(events.map(\.0) == ["TOKEN_EVENT"])
        #expect(events[0].1["reason"] == "refresh")
        #expect(events[0].1["refreshToken"]?.stringValue != before.refreshToken)
        #expect(bridge.perform { $0.embedded.refreshCount } == 1)
    }

    @Test func aRefusedRefreshWithoutSessionIsANativeLogout() throws {
        let bridge = ModuleHarness()
        _ = try bridge.call("tokenSyncReady")
        _ = try bridge.call(
            "tokenUpdate",
            [
                "accessToken": "js-access", "refreshToken": "unknown-to-the-server",
                "expiresAt": .int(Int64(bridge.perform { $0.clock.now }) + 30),
            ])
        _ = bridge.takeEvents()
        #expect(
            bridge.rejection("getAccessToken")
                == .rejection(
                    code: "error",
                    message: "All user credentials are expired or invalid; user authentication is required", detail: nil
                ))
        #expect(bridge.takeEvents().map { $0.1 } == [["reason": "refresh_rejected", "generation": 2]])
        #expect(
            bridge.rejection("getUserInfo")
                == .rejection(
                    code: "error", message: "Invalid SDK state: No current user for which to request user info",
                    detail: nil))
    }

    @Test func aRevokedSessionIsFoundOnTheNextRefresh() throws {
        let bridge = try Self.loggedIn(ready: true)
        _ = bridge.takeEvents()
        let user = bridge.perform { $0.embedded.userId(ofAccessToken: $0.sdk.accessToken!.value)! }
        #expect(bridge.perform { $0.embedded.revokeSessions(userId: user) } == (1, 1))
        _ = try bridge.call("getUserInfo")
        #expect(bridge.takeEvents().isEmpty)
        bridge.advanceClock(by: 3600)
        #expect(bridge.rejection("getUserInfo") != nil)
        #expect(bridge.takeEvents().map { $0.1 } == [["reason": "session_revoked", "generation": 2]])
    }

    @Test func anExpiredTokenIsRenewedFromTheSSOSessionWhenTheRefreshTokenIsRefused() throws {
        let bridge = try Self.loggedIn(ready: true)
        _ = bridge.takeEvents()
        // Rotating the refresh token behind the SDK's back makes the one it holds a replay.
        let held = bridge.perform { $0.sdk.accessToken!.refreshToken! }
        _ = bridge.perform {
            $0.embedded.token(form: [
                "grant_type": "refresh_token", "refresh_token": held, "client_id": "ReactNativeOAuthClient",
            ])
        }
        // The session is used meanwhile (as a web app's refresh would), so it outlives AM's 30
        // minutes of Maximum Idle Time.
        let sso = bridge.perform { $0.sdk.tokens.ssoToken! }
        for _ in 0..<2 {
            bridge.advanceClock(by: 1700)
            #expect(bridge.perform { $0.embedded.sessionInfo(ssoToken: sso, refresh: true).status } == 200)
        }
        bridge.advanceClock(by: 200)
        _ = try bridge.call("getAccessToken")
        #expect(bridge.takeEvents().map { $0.1["reason"] } == ["session"])
    }

    /// The refresh token refused and the session expired too (an hour without use): the
    /// session observer logs out as the fallback finds it gone, once.
    @Test func anExpiredTokenWithAnExpiredSessionLogsOutOnce() throws {
        let bridge = try Self.loggedIn(ready: true)
        _ = bridge.takeEvents()
        let held = bridge.perform { $0.sdk.accessToken!.refreshToken! }
        _ = bridge.perform {
            $0.embedded.token(form: [
                "grant_type": "refresh_token", "refresh_token": held, "client_id": "ReactNativeOAuthClient",
            ])
        }
        bridge.advanceClock(by: 3600)
        #expect(
            bridge.rejection("getAccessToken")
                == .rejection(
                    code: "error",
                    message: "All user credentials are expired or invalid; user authentication is required", detail: nil
                ))
        #expect(bridge.takeEvents().map { $0.1 } == [["reason": "session_ended", "generation": 2]])
    }

    @Test func exchangeTokenReplacesNativeTokensAndResolvesTheMap() throws {
        let bridge = try Self.loggedIn(ready: true)
        _ = bridge.takeEvents()
        let subject = bridge.perform { $0.sdk.accessToken!.value }
        let result = try bridge.call("exchangeToken", .string(subject))
        #expect(result["accessToken"]?.stringValue == bridge.perform { $0.sdk.accessToken?.value })
        #expect(result["accessToken"]?.stringValue != subject)
        #expect(result["generation"] == 2)
        let events = bridge.takeEvents()
        #expect(events.map { $0.1["reason"] } == ["exchange"])
        // JS pushing the exchanged tokens back is not a change.
        _ = try bridge.call("tokenUpdate", result)
        #expect(bridge.perform { $0.sdk.tokens.generation } == 2)
        #expect(try bridge.call("getUserInfo")["preferred_username"] == "demo")
    }

    @Test func anInvalidSubjectTokenIsRejectedWithTheServerError() throws {
        let bridge = ModuleHarness()
        #expect(
            bridge.rejection("exchangeToken", "forged")
                == .rejection(
                    code: "error", message: "Token exchange failed: The subject token is invalid, expired or revoked",
                    detail: "invalid_grant"))
        #expect(bridge.perform { $0.sdk.tokens.generation } == 0)
    }
}
