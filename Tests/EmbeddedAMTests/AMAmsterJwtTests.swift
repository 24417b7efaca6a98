import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's Amster JWT Decision: the nonce it sends, the JWT signed by an authorized key (ES256 from
/// `ecdsa-sha2-nistp256`, RS256 from `ssh-rsa`), and each way a token is refused.
struct AMAmsterJwtTests {
    typealias T = AMMoreNodesTests

    /// An `ecdsa-sha2-nistp256` authorized_keys line for `key` (RFC 5656 §3.1), with options.
    static func line(_ key: P256.PrivateKey, options: String = "") -> (line: String, id: String) {
        func string(_ bytes: [UInt8]) -> [UInt8] {
            let n = bytes.count
            return [UInt8(n >> 24 & 0xFF), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + bytes
        }
        let blob =
            string(Array("ecdsa-sha2-nistp256".utf8)) + string(Array("nistp256".utf8))
            + string(key.publicKey.uncompressedPoint)
        var id = Base64URL.encode(blob).replacingDashes
        while id.utf8.count % 4 != 0 { id += "=" }
        return ((options.isEmpty ? "" : options + " ") + "ecdsa-sha2-nistp256 " + id + " amster@test", id)
    }

    static func jwt(_ key: P256.PrivateKey, kid: String, nonce: String, sub: String = "amadmin") -> String {
        let claims = JSONWriter.compact(["sub": .string(sub), "nonce": .string(nonce)])
        return JWS.sign(
            payload: Array(claims.utf8),
            header: [
                "typ":
                    "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkFBQUFCM056YUMxeWMyRUFBQUFEQVFBQkFBQUJBUUN6UFJTdUJsZk9RQmFwTTdKbXBPekh4aG9Pd1Bnd0l0VUhUOU93WSttendHU01NU2dGNHBwRWRtOUN1c3grenIvd2xDOWNwenpCVXozdUNtY0htN2kyUmNWcFNrSmFEL09NcnFCSEFkTmVvM0ZCRWc4MEpLSjM2elFTUU5zY2I5OTlNSVlnZ2IzNWxSZzd0OE5tQTcvU3N0eE9HS1pGTzdXaVR0Y1lWb3VtSHVuZFdVRXN1MlByUHFYT3hHMW9iM1VEYlgwZVFyQW9mRTJ5ZVlRNHVHekxlQlJsYWNUY09DeEZnMGZEMm56SEFMcHRMVUVkZzZLVndxWUttOCs2M2FnN0VibWl5Q053TElaT01tWGxaYjV1WWQvSmk1TGt3MXRaTlhpdzdOd1NXaFkvWGpUZzBLRmlVNmdVTVJCNkRWSWMwMXZpdkRHdEUvVStHaHFrUzY2MyJ9.eyJzdWIiOiJhbWFkbWluIiwibm9uY2UiOiIzZjFkN2MyZS01YjhhLTRlOWYtYTBjMS02ZDJlN2Y4YTliMGMifQ.ix-lFK7WpiPrP1IQHBCVxYZYmen5tmOmJ1zUWESvnYHEwME1uJKGk1A05hbQ0cDs12ZT-wTJFUvI53QQQ1GQDkPShcrNi94fSolVs4Hionx5f6vu02MsiHyIHA0-EGNszMMIje3IcRx4MdMoJuAzWcrYPmAcsFqb1DtEucYOpSkxnF36_7BQ2S46RKwY9rDYxEwJLRLy5W7S3FdBigeI56eeYO-fP8dqfMd2yX6cKajl_vC4V-ZSWdOFTWd0hE-6ggDECSiTuTdFVRSxoX753Brcr1VSmV7srmj_0lpl8c-x874mAqZurgZ-ne2QWBQzutBmkav69bHY7p5R8phBrA",
                "kid": .string(kid),
            ], key: .p256(key))
    }

    static let key = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 9))
    static let other = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 10))

    /// Username (so Success has a user), then the node with `keys` inline; `true` to success.
    static func harness(keys: String) throws -> Harness {
        let h = try T.harness([
            ("n", "AmsterJwtDecisionNode", ["true": T.success, "false": "marker"], ["authorizedKeys": .string(keys)])
        ])
        return h
    }

    static func nonce(_ step: JSONValue) -> String { T.output(step, 0, "value")?.stringValue ?? "" }

    @Test func aTokenSignedByAnAuthorizedKeyWithTheNonceSignsInItsSubject() throws {
        let (line, id) = Self.line(Self.key)
        let h = try Self.harness(keys: "# amster keys\n" + line + "\n")
        let step = T.begin(h, username: "amadmin").body
        #expect(T.types(step) == ["HiddenValueCallback"])
        #expect(T.output(step, 0, "id") == "jwt")
        #expect(Self.nonce(step).count == 36, "a UUID")
        try h.am.users.add(username: "amadmin", password: "not-used-here", attributes: [:])
        let reply = h.submit(step, ["IDToken1": .string(Self.jwt(Self.key, kid: id, nonce: Self.nonce(step)))])
        let token = try #require(reply.body["tokenId"]?.stringValue)
        #expect(h.am.sessions.find(token)?.username == "amadmin", "sub is the user")
    }

    @Test func everyOtherTokenIsFalse() throws {
        let (line, id) = Self.line(Self.key)
        let otherId = Self.line(Self.other).id
        let h = try Self.harness(keys: line)
        let cases: [(String) -> String] = [
            { Self.jwt(Self.key, kid: id, nonce: "not-" + $0) },  // another nonce
            { Self.jwt(Self.other, kid: id, nonce: $0) },  // signed by a key not authorized, under its id
            { Self.jwt(Self.other, kid: otherId, nonce: $0) },  // a key not in the file
            { Self.jwt(Self.key, kid: otherId, nonce: $0) },  // the wrong kid
            { _ in "not.a.jwt" },
            { nonce in  // alg none
                let header = Base64URL.encode(Array("{\"alg\":\"none\",\"kid\":\"\(id)\"}".utf8))
                let claims = Base64URL.encode(Array("{\"sub\":\"amadmin\",\"nonce\":\"\(nonce)\"}".utf8))
                return header + "." + claims + "."
            },
        ]
        for make in cases {
            let step = T.begin(h).body
            #expect(T.reachedMarker(h.submit(step, ["IDToken1": .string(make(Self.nonce(step)))])))
        }
    }

    /// With `false` to AM's failure, each refusal names the check that failed.
    @Test func eachRefusalNamesItsCheck() throws {
        let (line, id) = Self.line(Self.key)
        let otherId = Self.line(Self.other).id
        let h = try T.harness([
            ("n", "AmsterJwtDecisionNode", ["true": T.success, "false": T.failure], ["authorizedKeys": .string(line)])
        ])
        let cases: [(check: String, make: (String) -> String)] = [
            ("nonce", { Self.jwt(Self.key, kid: id, nonce: "not-" + $0) }),
            ("signature", { Self.jwt(Self.other, kid: id, nonce: $0) }),
            ("kid", { Self.jwt(Self.key, kid: otherId, nonce: $0) }),
            ("jwt", { _ in "not-a-jwt" }),
        ]
        for (check, make) in cases {
            let step = T.begin(h).body
            #expect(h.submit(step, ["IDToken1": .string(make(Self.nonce(step)))]).status == 401)
            #expect(h.am.lastFailure?.reason?.code == "amster_jwt_refused")
            #expect(h.am.lastFailure?.reason?.fields["check"]?.stringValue == check, "\(check)")
        }
    }

    @Test func aKeysSubjectOptionLimitsWhoItSignsIn() throws {
        let (line, id) = Self.line(Self.key, options: "subject=\"amadmin,ops\"")
        let h = try Self.harness(keys: line)
        var step = T.begin(h).body
        #expect(
            T.reachedMarker(
                h.submit(step, ["IDToken1": .string(Self.jwt(Self.key, kid: id, nonce: Self.nonce(step), sub: "eve"))]))
        )
        step = T.begin(h).body
        try h.am.users.add(username: "ops", password: "not-used-here", attributes: [:])
        #expect(
            h.submit(step, ["IDToken1": .string(Self.jwt(Self.key, kid: id, nonce: Self.nonce(step), sub: "ops"))])
                .body["tokenId"] != nil)
    }

    /// An RSA key and an RS256 token made with node:crypto (an independent signer), for a fixed nonce.
    static let rsaLine =
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQCzPRSuBlfOQBapM7JmpOzHxhoOwPgwItUHT9OwY+mzwGSMMSgF4ppEdm9Cusx+zr/wlC9cpzzBUz3uCmcHm7i2RcVpSkJaD/OMrqBHAdNeo3FBEg80JKJ36zQSQNscb999MIYggb35lRg7t8NmA7/SstxOGKZFO7WiTtcYVoumHundWUEsu2PrPqXOxG1ob3UDbX0eQrAofE2yeYQ4uGzLeBRlacTcOCxFg0fD2nzHALptLUEdg6KVwqYKm8+63ag7EbmiyCNwLIZOMmXlZb5uYd/Ji5Lkw1tZNXiw7NwSWhY/XjTg0KFiU6gUMRB6DVIc01vivDGtE/U+GhqkS663 amster@example"
    static let rsaJWT =
        "eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCIsImtpZCI6IkFBQUFCM056YUMxeWMyRUFBQUFEQVFBQkFBQUJBUUN6UFJTdUJsZk9RQmFwTTdKbXBPekh4aG9Pd1Bnd0l0VUhUOU93WSttendHU01NU2dGNHBwRWRtOUN1c3grenIvd2xDOWNwenpCVXozdUNtY0htN2kyUmNWcFNrSmFEL09NcnFCSEFkTmVvM0ZCRWc4MEpLSjM2elFTUU5zY2I5OTlNSVlnZ2IzNWxSZzd0OE5tQTcvU3N0eE9HS1pGTzdXaVR0Y1lWb3VtSHVuZFdVRXN1MlByUHFYT3hHMW9iM1VEYlgwZVFyQW9mRTJ5ZVlRNHVHekxlQlJsYWNUY09DeEZnMGZEMm56SEFMcHRMVUVkZzZLVndxWUttOCs2M2FnN0VibWl5Q053TElaT01tWGxaYjV1WWQvSmk1TGt3MXRaTlhpdzdOd1NXaFkvWGpUZzBLRmlVNmdVTVJCNkRWSWMwMXZpdkRHdEUvVStHaHFrUzY2MyJ9.eyJzdWIiOiJhbWFkbWluIiwibm9uY2UiOiIzZjFkN2MyZS01YjhhLTRlOWYtYTBjMS02ZDJlN2Y4YTliMGMifQ.ix-lFK7WpiPrP1IQHBCVxYZYmen5tmOmJ1zUWESvnYHEwME1uJKGk1A05hbQ0cDs12ZT-wTJFUvI53QQQ1GQDkPShcrNi94fSolVs4Hionx5f6vu02MsiHyIHA0-EGNszMMIje3IcRx4MdMoJuAzWcrYPmAcsFqb1DtEucYOpSkxnF36_7BQ2S46RKwY9rDYxEwJLRLy5W7S3FdBigeI56eeYO-fP8dqfMd2yX6cKajl_vC4V-ZSWdOFTWd0hE-6ggDECSiTuTdFVRSxoX753Brcr1VSmV7srmj_0lpl8c-x874mAqZurgZ-ne2QWBQzutBmkav69bHY7p5R8phBrA"

    @Test func anRS256TokenFromAnSSHRSAKeyVerifies() throws {
        let keys = AuthorizedKeys(text: Self.rsaLine)
        #expect(keys.keys.count == 1)
        let node = AM.AmsterJwtDecisionNode(keys: keys.keys)
        let h = Harness()
        var context = NodeContext.make(
            h.am, clock: h.clock, entry: .answered([CallbackAnswer(inputs: ["": .string(Self.rsaJWT)])]))
        context.nodeState[AM.AmsterJwtDecisionNode.nonceKey] = "3f1d7c2e-5b8a-4e9f-a0c1-6d2e7f8a9b0c"
        guard case .outcome("true") = node.process(&context) else {
            Issue.record("RS256 token refused")
            return
        }
        #expect(context.shared["username"] == "amadmin")
        context = NodeContext.make(
            h.am, clock: h.clock, entry: .answered([CallbackAnswer(inputs: ["": .string(Self.rsaJWT)])]))
        context.nodeState[AM.AmsterJwtDecisionNode.nonceKey] = "another-nonce"
        guard case .outcome("false") = node.process(&context) else {
            Issue.record("a token for another nonce was taken")
            return
        }
    }

    @Test func keysAMCannotUseHereAreSkippedAndAMissingFileLeavesNone() throws {
        let keys = AuthorizedKeys(
            text:
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMy1bnh5c2VkLWtleS1mb3ItdGVzdGluZy0xMjM0NTY3 x\nssh-rsa !!!\n\nnot a key line\necdsa-sha2-nistp256 AAAAE2VjZHNhLXNoYTItbmlzdHAyNTY=\n"
        )
        #expect(keys.keys.isEmpty)
        #expect(keys.skipped.count == 3)
        let h = try Self.harness(keys: "/nonexistent/amster/authorized_keys")
        let step = T.begin(h).body
        #expect(
            T.reachedMarker(
                h.submit(step, ["IDToken1": .string(Self.jwt(Self.key, kid: "x", nonce: Self.nonce(step)))])))
    }

    @Test func aMissingSettingIsRefused() {
        #expect(throws: JourneyImport.Failure.self) {
            try AMExports.load([
                AMExports.tree(
                    "T", entry: "n", [("n", "AmsterJwtDecisionNode", ["true": T.success, "false": T.failure], [:])])
            ])
        }
    }
}

extension String {
    fileprivate var replacingDashes: String {
        String(map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
    }
}
