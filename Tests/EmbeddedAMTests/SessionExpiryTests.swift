import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

/// SSO sessions expire as AM's do (issue 30): "Maximum Idle Time" (30 minutes) after the last
/// use, "Maximum Session Time" (120 minutes) after the login, on the server's clock; an expired
/// session answers as AM answers, and ends through the one observer of ended sessions.
@Suite struct SessionExpiry {
    private func loggedIn() throws -> (Harness, String, Box) {
        let harness = Harness()
        let ended = Box()
        harness.am.onSessionEnded = { session, cause in ended.causes.append(cause) }
        return (harness, try #require(harness.ssoToken()), ended)
    }

    final class Box: @unchecked Sendable { var causes: [SessionEndCause] = [] }

    private func valid(_ harness: Harness, _ sso: String) -> Bool {
        harness.am.validateSession(ssoToken: sso).body["valid"] == true
    }

    @Test func aSessionUnusedForTheIdleTimeIsNoLongerValid() throws {
        let (harness, sso, ended) = try loggedIn()
        harness.clock.advance(by: 30 * 60 - 1)
        #expect(valid(harness, sso))
        harness.clock.advance(by: 1)
        #expect(harness.am.validateSession(ssoToken: sso).body == ["valid": false])
        #expect(ended.causes == [.expired])
        #expect(
            harness.am.sessionInfo(ssoToken: sso, refresh: true)
                == ServerReply(status: 401, body: AMErrors.accessDenied))
        #expect(harness.am.holdings.sessions == 0)
    }

    /// Validating reads the session (AM's `validate` and `getSessionInfo` leave the idle time
    /// alone); `refresh`, an authorization and a journey started with the cookie use it.
    @Test func useStartsTheIdleTimeAgainAndValidateDoesNot() throws {
        let (harness, sso, _) = try loggedIn()
        harness.clock.advance(by: 20 * 60)
        #expect(valid(harness, sso))
        let info = harness.am.sessionInfo(ssoToken: sso, refresh: true)
        #expect(info.body["latestAccessTime"] == "2026-01-01T00:20:00Z")
        #expect(info.body["maxIdleExpirationTime"] == "2026-01-01T00:50:00Z")
        #expect(info.body["maxSessionExpirationTime"] == "2026-01-01T02:00:00Z")
        harness.clock.advance(by: 20 * 60)
        #expect(valid(harness, sso), "40 minutes after the login, 20 after its last use")
        #expect(harness.tokens(ssoToken: sso).status == 200, "an authorization uses the session")
        harness.clock.advance(by: 29 * 60)
        let again = harness.am.authenticate(
            AuthenticateRequest(authIndexType: "service", authIndexValue: "Login", ssoToken: sso))
        #expect(again.body["tokenId"] == .string(sso), "a start with the cookie uses it too")
        harness.clock.advance(by: 29 * 60)
        #expect(valid(harness, sso))
        harness.clock.advance(by: 60)
        #expect(!valid(harness, sso))
    }

    @Test func aSessionInUseEndsAtTheMaximumSessionTime() throws {
        let (harness, sso, ended) = try loggedIn()
        for _ in 0..<5 {
            harness.clock.advance(by: 20 * 60)
            #expect(harness.am.sessionInfo(ssoToken: sso, refresh: true).status == 200)
        }
        harness.clock.advance(by: 20 * 60 - 1)
        #expect(valid(harness, sso))
        harness.clock.advance(by: 1)
        #expect(!valid(harness, sso))
        #expect(ended.causes == [.expired])
    }

    /// An expired session's cookie is ignored: the journey runs from its first step, and an
    /// authorization needs interaction, as without a session.
    @Test func anExpiredSessionsCookieIsIgnored() throws {
        let (harness, sso, _) = try loggedIn()
        harness.clock.advance(by: 30 * 60)
        let start = harness.am.authenticate(
            AuthenticateRequest(authIndexType: "service", authIndexValue: "Login", ssoToken: sso))
        #expect(start.body["tokenId"] == nil)
        #expect(start.body["callbacks"] != nil)
        let location =
            harness.am.authorize(
                AuthorizeRequest(
                    ssoToken: sso, clientId: "ReactNativeOAuthClient", redirectUri: Harness.redirect, scope: "openid",
                    state: "s1",
                    codeChallenge: PKCE.challenge(for: "verifier-0123456789-0123456789-0123456789xx", method: "S256"))
            ).headers["Location"] ?? ""
        #expect(Harness.query(location)["error"] == "interaction_required")
    }

    @Test func theTimesAreTheServersToSet() throws {
        var config = EmbeddedAMConfig()
        config.maxIdleTime = 60
        config.maxSessionTime = 90
        let clock = VirtualClock()
        let am = EmbeddedAM(config: config, clock: clock, random: SeededRandomSource(seed: 1))
        let step = am.authenticate(.start(service: "Login")).body
        let sso = try #require(
            am.authenticate(.submit(Harness.fill(step, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]))).body["tokenId"]?
                .stringValue)
        clock.advance(by: 59)
        #expect(am.sessionInfo(ssoToken: sso, refresh: true).status == 200)
        clock.advance(by: 30)
        #expect(am.validateSession(ssoToken: sso).body["valid"] == true)
        clock.advance(by: 1)
        #expect(am.validateSession(ssoToken: sso).body == ["valid": false])
    }

    /// 3,000 logins never logged out, ten seconds apart: the sessions past their idle time go as
    /// new ones come, so the server holds about half an hour's worth, not 3,000.
    @Test func thousandsOfLoginsWithTimePassingLeaveABoundedNumber() throws {
        let harness = Harness()
        var ended: [SessionEndCause] = []
        harness.am.onSessionEnded = { _, cause in ended.append(cause) }
        var most = 0
        for _ in 0..<3_000 {
            _ = try #require(harness.ssoToken())
            harness.clock.advance(by: 10)
            most = max(most, harness.am.holdings.sessions)
        }
        // 180 sessions are within their idle time; pruning runs once the store has doubled.
        #expect(most <= 2 * 180 + 2)
        #expect(ended.count >= 3_000 - most)
        #expect(Set(ended) == [.expired])
    }

    /// With the clock standing still nothing expires: the cap holds, the least recently used going.
    @Test func loginsWhileTheClockStandsStillAreCapped() throws {
        let harness = Harness(retentionCap: 100)
        var ended: [SessionEndCause] = []
        harness.am.onSessionEnded = { _, cause in ended.append(cause) }
        let first = try #require(harness.ssoToken())
        var latest = first
        for _ in 0..<300 { latest = try #require(harness.ssoToken()) }
        #expect(harness.am.holdings.sessions <= 100)
        #expect(Set(ended) == [.evicted])
        #expect(harness.am.validateSession(ssoToken: latest).body["valid"] == true)
        #expect(harness.am.validateSession(ssoToken: first).body == ["valid": false])
    }

    /// The last use is saved state, read strictly: a session restored keeps its idle time.
    @Test func theLastUseIsSavedAndReadStrictly() throws {
        let (harness, sso, _) = try loggedIn()
        harness.clock.advance(by: 20 * 60)
        _ = harness.am.sessionInfo(ssoToken: sso, refresh: true)
        let entries = harness.am.stateEntries
        let saved = try #require(entries.first { $0.path == ["sessions", sso] })
        #expect(saved.value["lastAccess"] == .double(harness.clock.now))
        let restored = Harness()
        try restored.am.restoreState(entries, rollingBack: false)
        restored.clock.advance(by: 20 * 60 + 29 * 60)
        #expect(restored.am.validateSession(ssoToken: sso).body["valid"] == true)
        restored.clock.advance(by: 60)
        #expect(restored.am.validateSession(ssoToken: sso).body == ["valid": false])
        guard case .object(var object) = saved.value else {
            Issue.record("not an object")
            return
        }
        object["lastAccess"] = "yesterday"
        let damaged = entries.map { $0.path == saved.path ? StateEntry($0.path, .object(object)) : $0 }
        #expect(throws: StateError.self) { try Harness().am.restoreState(damaged, rollingBack: false) }
    }
}
