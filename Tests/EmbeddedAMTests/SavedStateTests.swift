import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

/// What `--state-dir` relies on: the server written out as JSON text and read back into a fresh
/// server answers as the old one would have.
@Suite struct EmbeddedAMSavedState {
    /// The server's state entries, as `[[path, value], …]` JSON text.
    static func text(_ am: EmbeddedAM) -> String {
        JSONWriter().string(.array(am.stateEntries.map { [.array($0.path.map { .string($0) }), $0.value] }))
    }

    static func entries(_ text: String) throws -> [StateEntry] {
        try JSONParser.parse(Array(text.utf8)).arrayValue!.map { pair in
            StateEntry(pair.arrayValue![0].arrayValue!.compactMap(\.stringValue), pair.arrayValue![1])
        }
    }

    static func reload(_ am: EmbeddedAM, clock: VirtualClock) throws -> EmbeddedAM {
        let restored = EmbeddedAM(clock: clock, random: SeededRandomSource(seed: 99))
        try restored.restoreState(try entries(text(am)), rollingBack: false)
        return restored
    }

    @Test func usersSessionsAndGrantsSurvive() throws {
        let before = Harness()
        _ = try before.am.users.add(username: "ada", password: "An4lytical!", attributes: ["givenName": "Ada"])
        let sso = try #require(before.ssoToken())
        let tokens = before.tokens(ssoToken: sso).body
        let access = try #require(tokens["access_token"]?.stringValue)
        let refresh = try #require(tokens["refresh_token"]?.stringValue)

        let after = try Self.reload(before.am, clock: before.clock)
        #expect(after.users.verify(username: "ada", password: "An4lytical!")?.givenName == "Ada")
        #expect(after.users.verify(username: "demo", password: "Ch4ng3it!") != nil)
        #expect(after.users.count == 2)
        #expect(after.sessions.find(sso) != nil)
        #expect(after.userInfo(accessToken: access).status == 200)
        let refreshed = after.token(form: [
            "grant_type": "refresh_token", "refresh_token": refresh, "client_id": "ReactNativeOAuthClient",
        ])
        #expect(refreshed.status == 200)
        // The rotated-out token stays refused after a second reload.
        let again = try Self.reload(after, clock: before.clock)
        let replay = again.token(form: [
            "grant_type": "refresh_token", "refresh_token": refresh, "client_id": "ReactNativeOAuthClient",
        ])
        #expect(replay.body["error"] == "invalid_grant")
    }

    @Test func locksAndFailureCountsSurvive() throws {
        let counting = Harness()
        var step = counting.start("RetryLimit")
        for _ in 0..<2 { step = counting.submit(step.body, ["IDToken1": "demo", "IDToken2": "wrong"]) }
        #expect(
            try Self.reload(counting.am, clock: counting.clock).users.find(username: "demo")?.counters == [
                "RetryLimit/retry": 2
            ])
        let locking = Harness()
        for _ in 0..<3 {
            _ = locking.submit(locking.start("LockoutMode").body, ["IDToken1": "demo", "IDToken2": "wrong"])
        }
        #expect(
            try Self.reload(locking.am, clock: locking.clock).users.find(username: "demo")?.lock
                == DirectoryUser.AccountLock(until: locking.clock.now + 300))
    }

    @Test func theSnapshotHoldsNoClearPassword() {
        #expect(!Self.text(Harness().am).contains("Ch4ng3it!"))
    }

    @Test func aDamagedSnapshotIsRefusedNamingTheMember() throws {
        var entries = try Self.entries(Self.text(Harness().am))
        let index = try #require(entries.firstIndex { $0.path == ["users", "demo"] })
        guard case .object(var demo) = entries[index].value else {
            Issue.record("unexpected user shape")
            return
        }
        demo["username"] = 42
        entries[index].value = .object(demo)
        let fresh = Harness(seed: 3).am
        #expect(throws: StateError("server.users.demo.username: expected a string, found integer")) {
            try fresh.restoreState(entries, rollingBack: false)
        }
    }

    /// Hostile state: every saved value is read as the type it was written with. A retired
    /// refresh token's expiry of the wrong type was once read as "none" (kept a lifetime from
    /// now) and written back as a number; counters and the signing key likewise; an entry the
    /// server never writes is refused rather than skipped.
    @Test(arguments: [
        (
            ["oauth", "retired", "rt-1"], JSONValue.string("2027-01-01"),
            "server.oauth.retired.rt-1: expected a number or null, found string"
        ),
        (
            ["oauth", "revoked", "at-1"], JSONValue.bool(true),
            "server.oauth.revoked.at-1: expected a number or null, found boolean"
        ),
        (
            ["oauth", "retired", "rt-2"], JSONValue.double(1e300),
            "server.oauth.retired.rt-2: 1e+300 is not a time (\(TimeBounds.description))"
        ),
        (["oauth", "signingKey"], JSONValue.int(7), "server.oauth.signingKey: expected a string, found integer"),
        (
            ["oauth", "codes", "c-1"], JSONValue.object([:]),
            "server.oauth.codes.c-1: not saved state this authbridge knows"
        ),
        (
            ["users", "demo", "extra"], JSONValue.object([:]),
            "server.users.demo.extra: not saved state this authbridge knows"
        ),
        (["tokens", "x"], JSONValue.null, "server.tokens.x: not saved state this authbridge knows"),
    ])
    func aWrongTypedOrStrayEntryIsRefusedNamingIt(path: [String], value: JSONValue, message: String) throws {
        var entries = try Self.entries(Self.text(Harness().am)).filter { $0.path != path }
        entries.append(StateEntry(path, value))
        #expect(throws: StateError(message)) { try Harness(seed: 3).am.restoreState(entries, rollingBack: false) }
    }

    @Test func aCounterOfTheWrongTypeIsRefused() throws {
        var entries = try Self.entries(Self.text(Harness().am))
        let index = try #require(entries.firstIndex { $0.path == ["users", "demo"] })
        guard case .object(var demo) = entries[index].value else {
            Issue.record("unexpected user shape")
            return
        }
        demo["counters"] = ["RetryLimit/retry": "2"]
        entries[index].value = .object(demo)
        #expect(throws: StateError("server.users.demo.counters.RetryLimit/retry: expected an integer, found string")) {
            try Harness(seed: 3).am.restoreState(entries, rollingBack: false)
        }
    }

    /// A version-1 file's bare tokens (null) are still read as "no time": kept a lifetime from now.
    @Test func aRetiredTokenWithoutATimeIsStillAccepted() throws {
        var entries = try Self.entries(Self.text(Harness().am))
        entries.append(StateEntry(["oauth", "retired", "rt-1"], .null))
        let am = Harness(seed: 3).am
        try am.restoreState(entries, rollingBack: false)
        #expect(am.holdings.retiredRefreshTokens == 1)
    }
}

@Suite struct TokenExchangeAtTheServer {
    static func sso(_ h: Harness) throws -> String { try #require(h.ssoToken()) }

    static let exchange = "urn:ietf:params:oauth:grant-type:token-exchange"
    static let accessType = "urn:ietf:params:oauth:token-type:access_token"

    func form(_ subject: String, type: String = accessType, scope: String? = nil) -> [String: String] {
        var form = [
            "grant_type": Self.exchange, "subject_token": subject, "subject_token_type": type,
            "client_id": "ReactNativeOAuthClient",
        ]
        if let scope { form["scope"] = scope }
        return form
    }

    @Test func aLiveAccessTokenBuysANewGrantForTheSameUser() throws {
        let h = Harness()
        let subject = try #require(h.tokens(ssoToken: try Self.sso(h)).body["access_token"]?.stringValue)
        let reply = h.am.token(form: form(subject))
        #expect(reply.status == 200)
        #expect(reply.body["issued_token_type"]?.stringValue == Self.accessType)
        let issued = try #require(reply.body["access_token"]?.stringValue)
        #expect(issued != subject)
        #expect(reply.body["refresh_token"] != nil)
        #expect(h.am.userInfo(accessToken: issued).body["preferred_username"] == "demo")
        // RFC 8693 leaves the subject token alone.
        #expect(h.am.userInfo(accessToken: subject).status == 200)
    }

    @Test func theScopeCanOnlyNarrow() throws {
        let h = Harness()
        let subject = try #require(
            h.tokens(ssoToken: try Self.sso(h), scope: "openid profile").body["access_token"]?.stringValue)
        #expect(h.am.token(form: form(subject, scope: "openid")).body["scope"] == "openid")
        #expect(h.am.token(form: form(subject, scope: "openid email")).body["error"] == "invalid_scope")
    }

    @Test func badSubjectsAreRefused() throws {
        let h = Harness()
        let subject = try #require(h.tokens(ssoToken: try Self.sso(h)).body["access_token"]?.stringValue)
        #expect(h.am.token(form: form("forged")).body["error"] == "invalid_grant")
        #expect(
            h.am.token(form: form(subject, type: "urn:ietf:params:oauth:token-type:id_token")).body["error"]
                == "invalid_request")
        var missing = form(subject)
        missing["subject_token"] = nil
        #expect(h.am.token(form: missing).body["error"] == "invalid_request")
        h.clock.advance(by: 3600)
        #expect(h.am.token(form: form(subject)).body["error"] == "invalid_grant")
    }

    @Test func anAdministratorsRevocationEndsRefreshButNotLiveAccessTokens() throws {
        let h = Harness()
        let body = h.tokens(ssoToken: try Self.sso(h)).body
        let access = try #require(body["access_token"]?.stringValue)
        let user = try #require(h.am.userId(ofAccessToken: access))
        #expect(h.am.revokeSessions(userId: user) == (1, 1))
        #expect(h.am.userInfo(accessToken: access).status == 200)
        let refresh = h.am.token(form: [
            "grant_type": "refresh_token", "refresh_token": body["refresh_token"]!.stringValue!,
            "client_id": "ReactNativeOAuthClient",
        ])
        #expect(refresh.body["error"] == "invalid_grant")
        #expect(h.am.revokeSessions(userId: user) == (0, 0))
    }
}

/// The server remembers access tokens whose signature it checked; that must never outlive
/// revocation or expiry.
@Suite struct VerifiedTokenMemory {
    @Test func aRememberedTokenIsStillRevokedAndStillExpires() throws {
        let h = Harness()
        let body = h.tokens(ssoToken: try TokenExchangeAtTheServer.sso(h)).body
        let access = try #require(body["access_token"]?.stringValue)
        #expect(h.am.userInfo(accessToken: access).status == 200)
        _ = h.am.revoke(form: ["token": access, "client_id": "ReactNativeOAuthClient"])
        #expect(h.am.userInfo(accessToken: access).status == 401)

        let other = try #require(
            h.tokens(ssoToken: try TokenExchangeAtTheServer.sso(h)).body["access_token"]?.stringValue)
        #expect(h.am.userInfo(accessToken: other).status == 200)
        h.clock.advance(by: 3600)
        #expect(h.am.userInfo(accessToken: other).status == 401)
    }

    @Test func aTamperedTokenIsRefusedEvenAfterTheRealOneWasSeen() throws {
        let h = Harness()
        let access = try #require(
            h.tokens(ssoToken: try TokenExchangeAtTheServer.sso(h)).body["access_token"]?.stringValue)
        #expect(h.am.userInfo(accessToken: access).status == 200)
        var tampered = Array(access.utf8)
        tampered[tampered.count - 2] =
            tampered[tampered.count - 2] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(h.am.userInfo(accessToken: String(decoding: tampered, as: UTF8.self)).status == 401)
    }
}
