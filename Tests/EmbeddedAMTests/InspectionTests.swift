import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// What the inspector reads of the server: each grant's last access tokens, decoded, with what
/// introspection would say of them; an administrator expiring a user's tokens; the revoked
/// grants kept a while; the scripted nodes a scenario may choose for.
struct InspectionTests {
    private static let client = "ReactNativeOAuthClient"

    private func introspect(_ h: Harness, _ token: String) -> JSONValue? {
        h.am.introspect(form: ["client_id": Self.client, "token": token]).body["active"]
    }

    @Test func aGrantShowsItsAccessTokensDecodedAndActive() throws {
        let h = Harness()
        let issued = h.tokens(ssoToken: try #require(h.ssoToken())).body
        let grant = try #require(h.am.grants.first)
        #expect(grant.state == .active)
        let token = try #require(grant.accessTokens.first)
        #expect(token.state == .active)
        #expect(token.header["alg"] == "RS256" && token.header["kid"] != nil)
        #expect(token.claims["authGrantId"] == .string(grant.id))
        #expect(token.expires == token.claims["exp"]?.doubleValue)
        #expect(grant.idTokenClaims?["tokenName"] == "id_token")
        #expect(introspect(h, try #require(issued["access_token"]?.stringValue)) == true)
    }

    @Test func expiringAUsersTokensMakesThemInactiveAndLeavesTheRefreshToken() throws {
        let h = Harness()
        let issued = h.tokens(ssoToken: try #require(h.ssoToken())).body
        let access = try #require(issued["access_token"]?.stringValue)
        let userId = try #require(h.am.grants.first?.userId)
        #expect(h.am.expireAccessTokens(userId: userId) == 1)
        #expect(introspect(h, access) == false)
        #expect(h.am.userInfo(accessToken: access).status == 401)
        #expect(h.am.grants.first?.accessTokens.first?.state == .expired)
        #expect(h.am.grants.first?.accessTokens.first?.expiredAt == h.clock.now)
        // The same second, on a clock that does not move: the refreshed token is live.
        let refreshed = h.am.token(form: [
            "grant_type": "refresh_token", "client_id": Self.client,
            "refresh_token": try #require(issued["refresh_token"]?.stringValue),
        ]).body
        #expect(introspect(h, try #require(refreshed["access_token"]?.stringValue)) == true)
        #expect(h.am.grants.first?.accessTokens.map(\.state) == [.expired, .active])
        #expect(h.am.stateEntries.contains { $0.path == ["oauth", "expired", userId] }, "saved with the state")
    }

    @Test func aTokenTheGrantNoLongerRemembersIsJudgedByItsIssueTime() throws {
        let h = Harness()
        let issued = h.tokens(ssoToken: try #require(h.ssoToken())).body
        let first = try #require(issued["access_token"]?.stringValue)
        var refresh = try #require(issued["refresh_token"]?.stringValue)
        for _ in 0..<IssuedTokens.keptAccessTokens {
            h.clock.advance(by: 1)
            let body = h.am.token(form: [
                "grant_type": "refresh_token", "client_id": Self.client, "refresh_token": refresh,
            ]).body
            refresh = try #require(body["refresh_token"]?.stringValue)
        }
        #expect(h.am.grants.first?.accessTokens.count == IssuedTokens.keptAccessTokens, "the first is forgotten")
        _ = h.am.expireAccessTokens(userId: try #require(h.am.grants.first?.userId))
        #expect(introspect(h, first) == false)
    }

    @Test func theExpiryOutlivesARestartFromSavedState() throws {
        let h = Harness()
        let issued = h.tokens(ssoToken: try #require(h.ssoToken())).body
        let access = try #require(issued["access_token"]?.stringValue)
        _ = h.am.expireAccessTokens(userId: try #require(h.am.grants.first?.userId))
        let restarted = Harness(seed: 2)
        try restarted.am.restoreState(h.am.stateEntries, rollingBack: false)
        #expect(introspect(restarted, access) == false, "judged by its iat: the grant no longer remembers it")
        let refreshed = restarted.am.token(form: [
            "grant_type": "refresh_token", "client_id": Self.client,
            "refresh_token": try #require(issued["refresh_token"]?.stringValue),
        ]).body
        #expect(refreshed["access_token"] != nil, "the refresh token stays")
    }

    @Test func aRevokedRefreshTokenLeavesItsGrantShownRevokedForAWhile() throws {
        let h = Harness()
        let sso = try #require(h.ssoToken())
        for _ in 0...IssuedTokens.keptEndedGrants {
            let issued = h.tokens(ssoToken: sso).body
            _ = h.am.revoke(form: ["token": try #require(issued["refresh_token"]?.stringValue)])
        }
        let revoked = h.am.grants.filter { $0.state == .revoked }
        #expect(revoked.count == IssuedTokens.keptEndedGrants, "the oldest revoked grant is dropped")
        #expect(revoked.allSatisfy { $0.endedAt == h.clock.now && $0.accessTokens.allSatisfy { $0.state == .revoked } })
    }

    @Test func theGrantsUsedLastArePagedWithHowManyWereLeftOut() throws {
        let h = Harness()
        let sso = try #require(h.ssoToken())
        let first = try #require(h.tokens(ssoToken: sso).body["access_token"]?.stringValue)
        let firstId = try #require(h.am.grants.first?.id)
        _ = h.tokens(ssoToken: sso)
        _ = h.tokens(ssoToken: sso)
        #expect(h.am.userInfo(accessToken: first).status == 200, "the first grant is used again")
        let page = h.am.grants(recent: 2)
        #expect(page.leftOut == 1)
        #expect(page.views.count == 2)
        #expect(page.views.contains { $0.id == firstId })
    }

    @Test func theScriptedNodesAreListedWithTheirOutcomesAndTheChoiceInForce() throws {
        let h = Harness()
        #expect(h.am.scriptedNodes.isEmpty, "the built-ins have none")
        for journey in try JourneyImport.load([AMExports.source("Examples")], builtIn: []) {
            h.am.add(journey: journey)
        }
        let vip = try #require(h.am.scriptedNodes.first { $0.journey == "VipLogin" })
        let node = try #require(vip.nodes.first { $0.displayName == "Check VIP" })
        #expect(node.outcomes == ["vip", "regular"])
        #expect(node.chosen == nil)
        try h.am.setNodeOutcome(journey: "VipLogin", node: "Check VIP", outcome: "regular")
        #expect(
            h.am.scriptedNodes.first { $0.journey == "VipLogin" }?.nodes.first { $0.id == node.id }?.chosen == "regular"
        )
    }
}
