import AuthBridgeCore
import EmbeddedAM
import IdentityServer
import Testing

/// The issuer's keys as a client or a resource server sees them: every token names its key
/// (`kid`), `jwk_uri` publishes it, the client's algorithm signs its id tokens, a seed makes the
/// same keys, rotation keeps old keys published until their tokens expire, and `--state-dir`
/// keeps all of it.
@Suite struct IssuerSigningKeys {
    static func part(_ token: String, _ index: Int) throws -> JSONValue {
        try JSONParser.parse(try #require(Base64URL.decode(String(token.split(separator: ".")[index]))))
    }

    static func keys(_ am: EmbeddedAM) -> [JSONObject] {
        (am.jwks().body["keys"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// Verifies `token` with the published key its `kid` names, by that key's `alg` only.
    static func verifies(_ token: String, against keys: [JSONObject]) throws -> Bool {
        let header = try part(token, 0)
        guard let jwk = keys.first(where: { $0["kid"] == header["kid"] }), let alg = jwk["alg"]?.stringValue,
            let algorithm = JWS.Algorithm(rawValue: alg)
        else { return false }
        let key = JWS.VerificationKey(try JWK(json: jwk).key)
        return (try? JWS.verify(token, allowed: [algorithm], key: key)) != nil
    }

    static func signIn(_ harness: Harness) throws -> (access: String, id: String) {
        let body = harness.tokens(ssoToken: try #require(harness.ssoToken())).body
        return (try #require(body["access_token"]?.stringValue), try #require(body["id_token"]?.stringValue))
    }

    @Test(arguments: TokenSigningAlgorithm.allCases)
    func theClientsAlgorithmSignsItsIdTokensAndAccessTokensAreRS256(_ algorithm: TokenSigningAlgorithm) throws {
        let harness = Harness(idTokenSigningAlgorithm: algorithm)
        let tokens = try Self.signIn(harness)
        #expect(try Self.part(tokens.id, 0)["alg"] == .string(algorithm.rawValue))
        #expect(try Self.part(tokens.access, 0)["alg"] == "RS256")
        let keys = Self.keys(harness.am)
        #expect(Set(keys.compactMap { $0["alg"]?.stringValue }) == Set(["RS256", algorithm.rawValue]))
        #expect(keys.allSatisfy { $0["use"] == "sig" && $0["kid"]?.stringValue?.isEmpty == false })
        #expect(try Self.verifies(tokens.id, against: keys))
        #expect(try Self.verifies(tokens.access, against: keys))
        #expect(harness.am.userInfo(accessToken: tokens.access).status == 200)
        #expect(harness.am.endSession(idTokenHint: tokens.id, clientId: nil, at: .forgeRockSignOff).status == 200)
    }

    @Test func aTokenSignedByAnotherKeyOrTamperedWithIsNotOurs() throws {
        let harness = Harness()
        let tokens = try Self.signIn(harness)
        let other = try Self.signIn(Harness(seed: 2))
        #expect(harness.am.userInfo(accessToken: other.access).status == 401)
        var parts = tokens.access.split(separator: ".").map(String.init)
        parts[1] = Base64URL.encode(Array(#"{"tokenName":"access_token","jti":"x","authGrantId":"y"}"#.utf8))
        #expect(harness.am.userInfo(accessToken: parts.joined(separator: ".")).status == 401)
        #expect(harness.am.userId(ofAccessToken: parts.joined(separator: ".")) == nil)
    }

    @Test func aSeedMakesTheSameKeysAndTokens() throws {
        let first = Harness(seed: 5)
        let second = Harness(seed: 5)
        #expect(try Self.signIn(first) == (try Self.signIn(second)))
        #expect(Self.keys(first.am) == Self.keys(second.am))
        #expect(Self.keys(first.am) != Self.keys(Harness(seed: 6).am))
    }

    @Test func rotationPublishesOldKeysUntilTheirTokensHaveExpired() throws {
        let harness = Harness(idTokenSigningAlgorithm: .es256)
        let before = try Self.signIn(harness)
        let oldKids = Self.keys(harness.am).compactMap { $0["kid"] }
        let rotation = harness.am.rotateSigningKeys()
        #expect(rotation.current.map(\.algorithm) == [.rs256, .es256])
        #expect(rotation.retired.map { JSONValue.string($0.kid) } == oldKids)
        #expect(rotation.retired.allSatisfy { $0.until == harness.clock.now + 3600 })

        let after = try Self.signIn(harness)
        #expect(try Self.part(after.access, 0)["kid"] == .string(rotation.current[0].kid))
        #expect(try Self.part(after.id, 0)["kid"] == .string(rotation.current[1].kid))
        let keys = Self.keys(harness.am)
        #expect(keys.compactMap { $0["kid"]?.stringValue } == (rotation.current + rotation.retired).map(\.kid))
        #expect(try Self.verifies(before.access, against: keys) && (try Self.verifies(before.id, against: keys)))
        #expect(harness.am.userInfo(accessToken: before.access).status == 200)

        harness.clock.advance(by: 3599)
        #expect(Self.keys(harness.am).count == 4)
        harness.clock.advance(by: 1)
        #expect(Self.keys(harness.am).compactMap { $0["kid"]?.stringValue } == rotation.current.map(\.kid))
        #expect(harness.am.endSession(idTokenHint: before.id, clientId: nil, at: .forgeRockSignOff).status == 400)
        #expect(harness.am.userInfo(accessToken: after.access).status == 401)  // expired too, on the same clock
    }

    @Test func keysAndRotationsSurviveASaveAndRestore() throws {
        // The restored server has the default client (RS256), as this one.
        let harness = Harness()
        let before = try Self.signIn(harness)
        _ = harness.am.rotateSigningKeys()
        let published = Self.keys(harness.am)
        let restored = try EmbeddedAMSavedState.reload(harness.am, clock: harness.clock)
        #expect(restored.stateEntries.contains { $0.path == ["oauth", "signingKeys"] })
        // The restored server was made with another seed: the keys come from the saved state.
        #expect(Self.keys(restored) == published)
        #expect(restored.userInfo(accessToken: before.access).status == 200)
    }

    /// A state directory written before asymmetric keys held one HMAC key: it becomes the seed,
    /// and the HS256 tokens it signed are taken until they can no longer be live.
    @Test func anOldStateWithTheHMACKeyLoadsAndItsTokensLiveOut() throws {
        let harness = Harness()
        let legacy = (0..<32).map { UInt8($0) }
        let sso = try #require(harness.ssoToken())
        let access = try #require(harness.tokens(ssoToken: sso).body["access_token"]?.stringValue)
        let claims = try Self.part(access, 1).objectValue ?? [:]
        let hs256 = JWT(header: ["typ": "JWT", "alg": "HS256"], claims: claims).signed(key: legacy)
        var entries = try EmbeddedAMSavedState.entries(EmbeddedAMSavedState.text(harness.am))
        entries.removeAll { $0.path == ["oauth", "signingKeys"] }
        entries.append(StateEntry(["oauth", "signingKey"], .string(Base64URL.encode(legacy))))
        let restored = EmbeddedAM(clock: harness.clock, random: SeededRandomSource(seed: 99))
        try restored.restoreState(entries, rollingBack: false)
        let saved = restored.stateEntries.first { $0.path == ["oauth", "signingKeys"] }?.value
        #expect(saved?["seed"] == .string(Base64URL.encode(legacy)))
        #expect(saved?["hs256Until"] == .double(harness.clock.now + 3600))
        #expect(Self.keys(restored).count == 1)
        #expect(restored.userInfo(accessToken: hs256).status == 200)
        let forged = JWT(header: ["typ": "JWT", "alg": "HS256"], claims: claims).signed(key: Array("x".utf8))
        #expect(restored.userInfo(accessToken: forged).status == 401)
        harness.clock.advance(by: 3600)
        #expect(Self.keys(restored).count == 1)
        #expect(restored.stateEntries.first { $0.path == ["oauth", "signingKeys"] }?.value["hs256Until"] == nil)
        // A token of a fresh server signed HS256 with the seed is not taken.
        let fresh = Harness(seed: 4)
        _ = try Self.signIn(fresh)
        #expect(fresh.am.userId(ofAccessToken: hs256) == nil)
    }

    @Test(arguments: [
        (
            JSONValue.object(["seed": "AAAA", "generation": 0, "retired": []]),
            "seed: expected at least 32 bytes, found 3"
        ),
        (
            .object([
                "seed": .string(Base64URL.encode([UInt8](repeating: 1, count: 32))), "generation": 1,
                "retired": [["alg": "HS256", "generation": 0, "until": 10]],
            ]), "alg: expected one of RS256, ES256, PS256, found HS256"
        ),
        (
            .object([
                "seed": .string(Base64URL.encode([UInt8](repeating: 1, count: 32))), "generation": 1,
                "retired": [["alg": "RS256", "generation": 1, "until": 10]],
            ]), "generation: expected 0 to 0 (before the current), found 1"
        ),
    ])
    func aDamagedKeyEntryIsRefusedNamingIt(_ value: JSONValue, _ message: String) throws {
        var entries = try EmbeddedAMSavedState.entries(EmbeddedAMSavedState.text(Harness().am))
        let index = try #require(entries.firstIndex { $0.path == ["oauth", "signingKeys"] })
        entries[index].value = value
        do {
            try Harness(seed: 3).am.restoreState(entries, rollingBack: false)
            Issue.record("restored")
        } catch {
            #expect(error.message.hasSuffix(message), "\(error.message)")
        }
    }
}
