import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// What grows with traffic stays bounded even when the clock stands still (issue 16): abandoned
/// journeys, grants from token exchanges, rotated-out refresh tokens. What is kept answers as
/// before; what is dropped answers as AM answers for something unknown or timed out.
@Suite struct BoundedHoldings {
    @Test func pruningRunsOnlyWhenTheCollectionDoubledAndKeepsItUnderItsCap() {
        var pruning = Pruning(cap: 1_000)
        var items: [Int: Double] = [:]
        var runs = 0
        for i in 0..<5_000 {
            items[i] = Double(i)
            let before = items.count
            pruning.run(&items, expired: { $0 < 100 }, rank: { $0 })
            if items.count != before { runs += 1 }
        }
        #expect(items.count <= 1_000)
        #expect(items[4_999] != nil, "the newest stay")
        #expect(items[0] == nil && items[500] == nil, "expired and oldest go")
        #expect(runs < 50, "pruning is amortized: \(runs) runs for 5,000 inserts")
    }

    @Test func abandonedJourneysAreCappedAndTheRecentOnesStillAnswer() {
        let harness = Harness(retentionCap: 100)
        var steps: [JSONValue] = []
        for _ in 0..<120 { steps.append(harness.start("Login").body) }
        #expect(harness.am.holdings.pendingJourneys <= 100)
        let recent = harness.submit(steps.last!, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(recent.body["tokenId"] != nil, "a recent journey goes on")
        let oldest = harness.submit(steps.first!, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"])
        #expect(oldest.body == AMErrors.sessionTimedOut, "the longest abandoned meets AM's timeout")
    }

    @Test func exchangedGrantsAreCappedAndTheLatestStillRefreshes() throws {
        let harness = Harness(retentionCap: 100)
        let sso = try #require(harness.ssoToken())
        let subject = try #require(harness.tokens(ssoToken: sso).body["access_token"]?.stringValue)
        var latest = ""
        for _ in 0..<150 {
            let reply = harness.am.token(form: [
                "grant_type": TokenExchange.grantType, "subject_token": subject,
                "subject_token_type": TokenExchange.accessTokenType,
                "client_id": "ReactNativeOAuthClient",
            ])
            latest = reply.body["refresh_token"]?.stringValue ?? ""
        }
        #expect(harness.am.holdings.grants <= 100)
        let refreshed = harness.am.token(form: [
            "grant_type": "refresh_token", "refresh_token": latest, "client_id": "ReactNativeOAuthClient",
        ])
        #expect(refreshed.status == 200)
        // The subject's own grant was used by every exchange: it is not the one that goes.
        #expect(harness.am.userInfo(accessToken: subject).status == 200)
    }

    @Test func rotatedOutRefreshTokensAreCappedAndAreStillRefused() throws {
        let harness = Harness(retentionCap: 100)
        let sso = try #require(harness.ssoToken())
        var refresh = try #require(harness.tokens(ssoToken: sso).body["refresh_token"]?.stringValue)
        let first = refresh
        for _ in 0..<150 {
            let reply = harness.am.token(form: [
                "grant_type": "refresh_token", "refresh_token": refresh, "client_id": "ReactNativeOAuthClient",
            ])
            refresh = try #require(reply.body["refresh_token"]?.stringValue)
        }
        #expect(harness.am.holdings.retiredRefreshTokens <= 100)
        let replay = harness.am.token(form: [
            "grant_type": "refresh_token", "refresh_token": first, "client_id": "ReactNativeOAuthClient",
        ])
        #expect(
            replay.body["error"] == "invalid_grant", "forgotten or not, a rotated-out token is refused the same way")
    }
}
