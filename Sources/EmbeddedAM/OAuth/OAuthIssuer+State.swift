import AuthBridgeCore
import IdentityServer

/// RFC 8693 names.
public enum TokenExchange {
    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    public static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
}

// MARK: saved state

extension OAuthIssuer {
    /// The signing keys, grants, rotated-out refresh tokens and revoked access tokens, keyed
    /// (`["signingKeys"]`, `["grants", id]`, `["retired", token]`, …). Codes are left out: they
    /// live two minutes and belong to a journey in progress.
    var stateEntries: [StateEntry] {
        var entries = [StateEntry(["signingKeys"], keysJSON)]
        entries += grants.keys.sorted().map { StateEntry(["grants", $0], Self.stateJSON(grants[$0]!)) }
        entries += retiredRefreshTokens.keys.sorted().map {
            StateEntry(["retired", $0], .double(retiredRefreshTokens[$0]!))
        }
        entries += revokedAccessTokens.keys.sorted().map {
            StateEntry(["revoked", $0], .double(revokedAccessTokens[$0]!))
        }
        entries += accessTokensExpired.keys.sorted().map {
            StateEntry(["expired", $0], .double(accessTokensExpired[$0]!))
        }
        return entries
    }

    /// What changed since the last call.
    func takeStateEdits() -> [StateEdit] {
        defer { changes = Changes() }
        var edits: [StateEdit] = []
        if changes.keys {
            edits.append(.put(StateEntry(["signingKeys"], keysJSON)))
            // A file from before asymmetric keys held the seed as an HMAC key.
            edits.append(StateEdit(["signingKey"], nil))
        }
        edits += changes.grants.sorted().map { StateEdit(["grants", $0], grants[$0].map(Self.stateJSON)) }
        edits += changes.retired.sorted().map {
            StateEdit(["retired", $0], retiredRefreshTokens[$0].map { .double($0) })
        }
        edits += changes.revoked.sorted().map {
            StateEdit(["revoked", $0], revokedAccessTokens[$0].map { .double($0) })
        }
        edits += changes.expired.sorted().map {
            StateEdit(["expired", $0], accessTokensExpired[$0].map { .double($0) })
        }
        return edits
    }

    /// What every key derives from (`SigningKeys`): the seed, the current generation, and the
    /// retired keys still published. The keys themselves are made again from these when first
    /// needed, the same keys.
    var keysJSON: JSONValue {
        var json: JSONObject = [
            "seed": .string(Base64URL.encode(keys.seed)), "generation": .int(Int64(keys.generation)),
            "retired": .array(
                keys.retired.map {
                    [
                        "alg": .string($0.algorithm.rawValue), "generation": .int(Int64($0.generation)),
                        "until": .double($0.until),
                    ]
                }),
        ]
        if let until = keys.legacyHMACUntil { json["hs256Until"] = .double(until) }
        return .object(json)
    }

    static func stateJSON(_ grant: Grant) -> JSONValue {
        var json: JSONObject = [
            "id": .string(grant.id), "clientId": .string(grant.clientId), "userId": .string(grant.userId),
            "scopes": .array(grant.scopes.map { .string($0) }), "authTime": .double(grant.authTime),
            "opsId": .string(grant.opsId), "refreshToken": .string(grant.refreshToken),
            "refreshExpires": .double(grant.refreshExpires),
        ]
        if let issuer = grant.issuer { json["issuer"] = .string(issuer) }
        return .object(json)
    }

    /// Restores from its entries (`path` names them in errors). Every value is checked for its
    /// type: a time of the wrong type is an error naming it, never read as "no time".
    func restoreState(_ entries: [StateEntry], path: String) throws(StateError) {
        var restoredKeys: SigningKeys?
        var legacySeed: [UInt8]?
        var grants: [StateReader] = []
        var retired: [(String, Double?)] = []
        var revoked: [(String, Double?)] = []
        var expired: [String: Double] = [:]
        for entry in entries {
            let field = entry.field(under: path)
            switch (entry.path.first, entry.path.count) {
            case ("signingKeys", 1): restoredKeys = try Self.keys(try field.reader())
            case ("signingKey", 1):
                // Before asymmetric keys: the HMAC key, 32 random bytes, becomes the seed.
                let bytes = try field.bytes()
                guard bytes.count >= 32 else {
                    throw StateError("\(path).signingKey: expected at least 32 bytes, found \(bytes.count)")
                }
                legacySeed = bytes
            case ("grants", 2): grants.append(try field.reader())
            case ("retired", 2): retired.append((entry.path[1], try field.optionalTime()))
            case ("revoked", 2): revoked.append((entry.path[1], try field.optionalTime()))
            case ("expired", 2): expired[entry.path[1]] = try field.time()
            default: throw entry.unknown(under: path)
            }
        }
        let legacyUntil = clock.now + config.accessTokenLifetime
        guard let keys = restoredKeys ?? legacySeed.map({ SigningKeys(seed: $0, legacyHMACUntil: legacyUntil) }) else {
            throw StateError("\(path).signingKeys: missing")
        }
        try restore(keys: keys, grants: grants, retired: retired, revoked: revoked)
        accessTokensExpired = expired
        // An old file is rewritten in the new form at the next save.
        if restoredKeys == nil, tracksChanges { changes.keys = true }
    }

    private static func keys(_ reader: StateReader) throws(StateError) -> SigningKeys {
        let seed = try reader.bytes("seed")
        guard seed.count >= 32 else {
            throw StateError("\(reader.path).seed: expected at least 32 bytes, found \(seed.count)")
        }
        let generation = try reader.int("generation")
        guard generation >= 0, generation < Int64(Int32.max) else {
            throw StateError("\(reader.path).generation: expected 0 or more, found \(generation)")
        }
        var retired: [SigningKeys.Retired] = []
        for old in try reader["retired"].readers() {
            let name = try old.string("alg")
            guard let algorithm = TokenSigningAlgorithm(rawValue: name) else {
                let known = TokenSigningAlgorithm.allCases.map(\.rawValue).joined(separator: ", ")
                throw StateError("\(old.path).alg: expected one of \(known), found \(name)")
            }
            let oldGeneration = try old.int("generation")
            guard oldGeneration >= 0, oldGeneration < generation else {
                throw StateError(
                    "\(old.path).generation: expected 0 to \(generation - 1) (before the current), found \(oldGeneration)"
                )
            }
            retired.append(
                SigningKeys.Retired(algorithm: algorithm, generation: Int(oldGeneration), until: try old.time("until")))
        }
        return SigningKeys(
            seed: seed, generation: Int(generation), retired: retired,
            legacyHMACUntil: try reader["hs256Until"].optionalTime())
    }

    /// `retired` and `revoked` carry when each may be forgotten; nil (a version-1 file, which
    /// kept bare tokens) keeps it for a refresh token's lifetime from now, and a revoked access
    /// token until the year 9999.
    private func restore(
        keys: SigningKeys, grants readers: [StateReader], retired: [(String, Double?)], revoked: [(String, Double?)]
    ) throws(StateError) {
        var restored: [String: Grant] = [:]
        var byRefreshToken: [String: String] = [:]
        for grant in readers {
            let value = Grant(
                id: try grant.string("id"), clientId: try grant.string("clientId"), userId: try grant.string("userId"),
                scopes: try grant.strings("scopes"), authTime: try grant.time("authTime"),
                opsId: try grant.string("opsId"), issuer: try grant.optionalString("issuer"),
                refreshToken: try grant.string("refreshToken"), refreshExpires: try grant.time("refreshExpires"))
            guard restored[value.id] == nil, byRefreshToken[value.refreshToken] == nil else {
                throw StateError("\(grant.path): a grant id or refresh token appears twice")
            }
            restored[value.id] = value
            byRefreshToken[value.refreshToken] = value.id
        }
        self.keys = keys
        verified.removeAll()
        grants = restored
        endedGrants = []
        grantByRefreshToken = byRefreshToken
        let now = clock.now
        retiredRefreshTokens = Dictionary(
            retired.map { ($0.0, $0.1 ?? now + config.refreshTokenLifetime) }, uniquingKeysWith: max)
        revokedAccessTokens = Dictionary(revoked.map { ($0.0, $0.1 ?? TimeBounds.latest) }, uniquingKeysWith: max)
        changes = Changes()
    }
}
