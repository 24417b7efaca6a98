import AuthBridgeCore

/// RFC 8693 names.
public enum TokenExchange {
    public static let grantType = "urn:ietf:params:oauth:grant-type:token-exchange"
    public static let accessTokenType = "urn:ietf:params:oauth:token-type:access_token"
}

// MARK: saved state

extension OAuthIssuer {
    /// The signing key, grants, rotated-out refresh tokens and revoked access tokens, keyed
    /// (`["grants", id]`, `["retired", token]`, …). Codes are left out: they live two minutes
    /// and belong to a journey in progress.
    var stateItems: [EmbeddedAM.StateItem] {
        var items: [EmbeddedAM.StateItem] = [(["signingKey"], .string(Base64URL.encode(signingKey)))]
        items += grants.keys.sorted().map { (["grants", $0], Self.stateJSON(grants[$0]!)) }
        items += retiredRefreshTokens.keys.sorted().map { (["retired", $0], .double(retiredRefreshTokens[$0]!)) }
        items += revokedAccessTokens.keys.sorted().map { (["revoked", $0], .double(revokedAccessTokens[$0]!)) }
        return items
    }

    /// What changed since the last call; a nil value is an entry removed.
    func takeChanges() -> [EmbeddedAM.StateItem] {
        defer { changes = Changes() }
        var items: [EmbeddedAM.StateItem] = []
        if changes.signingKey { items.append((["signingKey"], .string(Base64URL.encode(signingKey)))) }
        items += changes.grants.sorted().map { (["grants", $0], grants[$0].map(Self.stateJSON)) }
        items += changes.retired.sorted().map { (["retired", $0], retiredRefreshTokens[$0].map { .double($0) }) }
        items += changes.revoked.sorted().map { (["revoked", $0], revokedAccessTokens[$0].map { .double($0) }) }
        return items
    }

    static func stateJSON(_ grant: Grant) -> JSONValue {
        [
            "id": .string(grant.id), "clientId": .string(grant.clientId), "userId": .string(grant.userId),
            "scopes": .array(grant.scopes.map { .string($0) }), "authTime": .double(grant.authTime),
            "opsId": .string(grant.opsId), "refreshToken": .string(grant.refreshToken),
            "refreshExpires": .double(grant.refreshExpires),
        ]
    }

    /// Restores from keyed items (`path` names the member in errors).
    func restore(items: [([String], JSONValue)], path: String) throws(StateError) {
        guard let keyText = items.first(where: { $0.0 == ["signingKey"] })?.1.stringValue, let key = Base64URL.decode(keyText), key.count >= 32 else {
            throw StateError("\(path).signingKey: expected at least 32 bytes of base64url")
        }
        try restore(
            key: key, grants: items.filter { $0.0.first == "grants" }.map { ($0.1, "\(path).grants.\($0.0.last ?? "")") },
            retired: items.filter { $0.0.first == "retired" && $0.0.count == 2 }.map { ($0.0[1], $0.1.doubleValue) },
            revoked: items.filter { $0.0.first == "revoked" && $0.0.count == 2 }.map { ($0.0[1], $0.1.doubleValue) })
    }

    /// Restores from a version-1 state file (arrays).
    func restore(_ reader: StateReader) throws(StateError) {
        let key = try reader.bytes("signingKey")
        guard key.count >= 32 else { throw StateError("\(reader.path).signingKey: expected at least 32 bytes") }
        let grants = try reader.array("grants").enumerated().map { ($0.element, "\(reader.path).grants[\($0.offset)]") }
        try restore(
            key: key, grants: grants, retired: try reader.strings("retiredRefreshTokens").map { ($0, nil) },
            revoked: try reader.strings("revokedAccessTokens").map { ($0, nil) })
    }

    /// `retired` and `revoked` carry when each may be forgotten; nil (an older file) keeps it
    /// for a refresh token's lifetime from now, and a revoked access token until the year 9999.
    private func restore(
        key: [UInt8], grants items: [(JSONValue, String)], retired: [(String, Double?)], revoked: [(String, Double?)]
    ) throws(StateError) {
        var restored: [String: Grant] = [:]
        var byRefreshToken: [String: String] = [:]
        for (json, path) in items {
            let grant = try StateReader(json, path: path)
            let value = Grant(
                id: try grant.string("id"), clientId: try grant.string("clientId"), userId: try grant.string("userId"),
                scopes: try grant.strings("scopes"), authTime: try grant.time("authTime"), opsId: try grant.string("opsId"),
                refreshToken: try grant.string("refreshToken"), refreshExpires: try grant.time("refreshExpires"))
            guard restored[value.id] == nil, byRefreshToken[value.refreshToken] == nil else {
                throw StateError("\(grant.path): a grant id or refresh token appears twice")
            }
            restored[value.id] = value
            byRefreshToken[value.refreshToken] = value.id
        }
        signingKey = key
        grants = restored
        grantByRefreshToken = byRefreshToken
        let now = clock.now
        retiredRefreshTokens = Dictionary(retired.map { ($0.0, $0.1 ?? now + config.refreshTokenLifetime) }, uniquingKeysWith: max)
        revokedAccessTokens = Dictionary(revoked.map { ($0.0, $0.1 ?? TimeBounds.latest) }, uniquingKeysWith: max)
        changes = Changes()
    }
}
