import AuthBridgeCore
import IdentityServer

/// Signing with the issuer's keys, checking its own tokens by their `kid`, publishing the keys
/// (`jwk_uri`) and rotating them.
extension OAuthIssuer {
    /// The algorithms the issuer signs with now: the access tokens', and each client's id tokens'.
    var signingAlgorithms: Set<TokenSigningAlgorithm> {
        Set(clients.all.map(\.idTokenSigningAlgorithm) + [config.accessTokenSigningAlgorithm])
    }

    /// The header in AM's order: `typ`, `kid`, `alg`.
    func sign(_ claims: JSONObject, with algorithm: TokenSigningAlgorithm) -> String {
        let key = keys.current(algorithm)
        return JWS.sign(
            payload: JSONWriter().bytes(.object(claims)),
            header: ["typ": "JWT", "kid": .string(key.kid), "alg": .string(algorithm.rawValue)],
            key: key.signingKey)
    }

    /// A token of ours: signed by a key its `kid` names, current or retired but still
    /// published, with that key's algorithm. Expiry is the caller's business.
    func verify(_ token: String) -> JWT? {
        guard let unverified = try? JWS.parse(token) else { return nil }
        if unverified.algorithmName == "HS256" {
            // Only a token from an HS256-era state directory, while it can still be live.
            guard let until = keys.legacyHMACUntil, clock.now < until,
                let verified = try? unverified.verify(allowed: [.hs256], key: .hmac(HMACSHA256.Key(keys.seed))),
                case .object(let claims)? = try? JSONParser.parse(verified.payload)
            else { return nil }
            return JWT(header: verified.header, claims: claims)
        }
        guard case .string(let kid)? = unverified.header["kid"],
            let key = keys.verificationKey(kid: kid),
            let verified = try? unverified.verify(allowed: [key.algorithm.jws], key: key.verificationKey),
            case .object(let claims)? = try? JSONParser.parse(verified.payload)
        else { return nil }
        return JWT(header: verified.header, claims: claims)
    }

    /// `jwk_uri`'s document: the current keys of the algorithms in use (made now if need be),
    /// then the retired keys whose tokens have not all expired.
    func jwks() -> ServerReply {
        pruneKeys()
        let published = keys.published(algorithms: signingAlgorithms)
        return ServerReply(status: 200, body: ["keys": .array(published.map { .object($0.jwk) })])
    }

    /// Makes new keys current. The current ones stay published until the last token they can
    /// have signed expires: every token lives `accessTokenLifetime` at most.
    func rotateKeys() -> (current: [(kid: String, algorithm: TokenSigningAlgorithm)], retired: [SigningKeys.Retired]) {
        pruneKeys()
        keys.rotate(algorithms: signingAlgorithms, until: clock.now + config.accessTokenLifetime)
        if tracksChanges { changes.keys = true }
        let current = TokenSigningAlgorithm.allCases.filter(signingAlgorithms.contains).map {
            (kid: keys.kid($0, generation: keys.generation), algorithm: $0)
        }
        return (current, keys.retired)
    }

    func kid(of retired: SigningKeys.Retired) -> String { keys.kid(retired.algorithm, generation: retired.generation) }

    private func pruneKeys() {
        if keys.prune(now: clock.now), tracksChanges { changes.keys = true }
    }
}
