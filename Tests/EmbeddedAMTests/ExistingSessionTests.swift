import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

/// A start that carries a session cookie (the Ping SDKs send their stored session on every
/// start): AM answers the session at once only for a journey the session already satisfies;
/// `ForceAuth=true`, `noSession=true`, another journey or an ended session run the journey.
@Suite struct ExistingSessionTests {
    static func start(
        _ journey: String, cookie: String?, forceAuth: Bool = false, noSession: Bool = false
    ) -> AuthenticateRequest {
        AuthenticateRequest(
            authIndexType: "service", authIndexValue: journey, noSession: noSession, ssoToken: cookie,
            forceAuth: forceAuth)
    }

    @Test func theJourneyTheSessionCameFromAnswersItAtOnce() throws {
        let h = Harness()
        let sso = try #require(h.ssoToken())
        let again = h.am.authenticate(Self.start("Login", cookie: sso))
        #expect(
            again
                == ServerReply(
                    status: 200,
                    body: ["tokenId": .string(sso), "successUrl": "/enduser/?realm=/alpha", "realm": "/alpha"]))
        #expect(h.am.holdings.sessions == 1, "no new session")
    }

    @Test func forceAuthNoSessionAndAnEndedSessionRunTheJourney() throws {
        let h = Harness()
        let sso = try #require(h.ssoToken())
        #expect(h.am.authenticate(Self.start("Login", cookie: sso, forceAuth: true)).body["authId"] != nil)
        #expect(h.am.authenticate(Self.start("Login", cookie: sso, noSession: true)).body["authId"] != nil)
        _ = h.am.logoutSession(ssoToken: sso)
        #expect(h.am.authenticate(Self.start("Login", cookie: sso)).body["authId"] != nil)
        #expect(h.am.authenticate(Self.start("Login", cookie: "not-a-session")).body["authId"] != nil)
    }

    @Test func anotherJourneyRunsAndItsSessionSatisfiesBoth() throws {
        let h = Harness()
        let sso = try #require(h.ssoToken())
        let step = h.am.authenticate(Self.start("PlatformLogin", cookie: sso))
        #expect(step.body["authId"] != nil, "a journey the session has not completed runs (session upgrade)")
        let upgraded = try #require(
            h.submit(step.body, ["IDToken1": "demo", "IDToken2": "Ch4ng3it!"]).body["tokenId"]?.stringValue)
        #expect(upgraded != sso)
        for journey in ["Login", "PlatformLogin"] {
            #expect(
                h.am.authenticate(Self.start(journey, cookie: upgraded)).body["tokenId"]?.stringValue == upgraded,
                "\(journey)")
        }
        #expect(
            h.am.authenticate(Self.start("PlatformLogin", cookie: sso)).body["authId"] != nil,
            "the old session still satisfies only Login")
    }

    @Test func theJourneysASessionSatisfiesSurviveARestart() throws {
        let h = Harness()
        let sso = try #require(h.ssoToken())
        let restarted = Harness(seed: 2)
        try restarted.am.restoreState(h.am.stateEntries, rollingBack: false)
        #expect(restarted.am.authenticate(Self.start("Login", cookie: sso)).body["tokenId"]?.stringValue == sso)
    }
}
