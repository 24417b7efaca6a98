import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

/// The sessions actions and introspection the HTTP face serves, and the one observer of ended
/// sessions.
@Suite struct SessionEndpoints {
    @Test func validateAndSessionInfoFollowTheSession() {
        let harness = Harness()
        let sso = harness.ssoToken()!
        #expect(harness.am.validateSession(ssoToken: sso).body == ["valid": true, "uid": "demo", "realm": "/alpha"])
        let info = harness.am.sessionInfo(ssoToken: sso, refresh: false)
        #expect(info.status == 200)
        #expect(info.body["username"] == "demo")
        #expect(info.body["latestAccessTime"] == "2026-01-01T00:00:00Z")
        #expect(harness.am.logoutSession(ssoToken: sso).status == 200)
        #expect(harness.am.validateSession(ssoToken: sso).body == ["valid": false])
        #expect(
            harness.am.sessionInfo(ssoToken: sso, refresh: true)
                == ServerReply(status: 401, body: AMErrors.accessDenied))
    }

    @Test func everyEndedSessionIsReportedWithItsCause() {
        let harness = Harness()
        final class Seen { var ended: [(String, SessionEndCause)] = [] }
        let seen = Seen()
        harness.am.onSessionEnded = { session, cause in seen.ended.append((session.tokenId, cause)) }
        let first = harness.ssoToken()!
        _ = harness.am.logoutSession(ssoToken: first)
        _ = harness.am.logoutSession(ssoToken: first)  // already gone: not reported again
        let second = harness.ssoToken()!
        let idToken = harness.tokens(ssoToken: second).body["id_token"]!.stringValue!
        _ = harness.am.endSession(idTokenHint: idToken, clientId: nil, at: .endSessionEndpoint)
        let third = harness.ssoToken()!
        _ = harness.am.revokeSessions(userId: harness.am.users.find(username: "demo")!.id)
        #expect(seen.ended.map(\.0) == [first, second, third])
        #expect(seen.ended.map(\.1) == [.logout, .endSession, .administrator])
    }

    @Test func introspectionSaysWhatATokenIsAndForWhom() {
        let harness = Harness()
        let tokens = harness.tokens(ssoToken: harness.ssoToken()!).body
        let access = tokens["access_token"]!.stringValue!
        let refresh = tokens["refresh_token"]!.stringValue!
        let client = "ReactNativeOAuthClient"
        let live = harness.am.introspect(form: ["token": access, "client_id": client]).body
        #expect(live["active"] == true)
        #expect(live["username"] == "demo")
        #expect(live["token_type"] == "Bearer")
        #expect(live["scope"] == "openid profile email")
        #expect(
            harness.am.introspect(form: ["token": refresh, "client_id": client]).body["token_type"] == "refresh_token")
        #expect(harness.am.introspect(form: ["token": "forged", "client_id": client]).body == ["active": false])
        #expect(harness.am.introspect(form: ["token": access, "client_id": "other"]).body["error"] == "invalid_client")
        _ = harness.am.revoke(form: ["token": access, "client_id": client])
        #expect(harness.am.introspect(form: ["token": access, "client_id": client]).body == ["active": false])
        harness.clock.advance(by: 3601)
        #expect(harness.am.introspect(form: ["token": refresh, "client_id": client]).body["active"] == true)
    }
}
