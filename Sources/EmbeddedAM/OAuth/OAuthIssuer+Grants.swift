import AuthBridgeCore

/// A grant's life after it is issued: added (the grants stay bounded), its refresh tokens retired
/// as they rotate or the grant ends, every grant of a user ended by an administrator.
extension OAuthIssuer {
    /// An administrator's revocation: every grant of the user ends, so their refresh tokens are
    /// refused from now on. Access tokens already issued stay valid until they expire (they are
    /// stateless JWTs), which is why the client finds out on its next refresh.
    func endGrants(userId: String) -> Int {
        let live = grants.values.filter { $0.userId == userId && grantByRefreshToken[$0.refreshToken] != nil }
        for grant in live {
            grantByRefreshToken[grant.refreshToken] = nil
            retire(grant.refreshToken)
        }
        return live.count
    }

    /// An ended session leaves its grants valid, as in AM: tokens outlive the SSO session.
    func endGrant(_ grantId: String) {
        guard let grant = grants.removeValue(forKey: grantId) else { return }
        if tracksChanges { changes.grants.insert(grantId) }
        endedGrants.append((grant, clock.now))
        if endedGrants.count > IssuedTokens.keptEndedGrants { endedGrants.removeFirst() }
        grantByRefreshToken[grant.refreshToken] = nil
        retire(grant.refreshToken)
    }

    func retire(_ token: String) {
        let now = clock.now
        retiredRefreshTokens[token] = now + config.refreshTokenLifetime
        if tracksChanges { changes.retired.insert(token) }
        let before = retiredRefreshTokens.count
        var remaining = retiredRefreshTokens
        retiredPruning.run(&remaining, expired: { $0 <= now }, rank: { $0 })
        if remaining.count < before {
            if tracksChanges { changes.retired.formUnion(retiredRefreshTokens.keys.filter { remaining[$0] == nil }) }
            retiredRefreshTokens = remaining
        }
    }

    /// A new grant: the grants stay bounded as they are added.
    func add(_ grant: Grant) {
        var grant = grant
        uses += 1
        grant.lastUsed = uses
        grants[grant.id] = grant
        if tracksChanges { changes.grants.insert(grant.id) }
        grantByRefreshToken[grant.refreshToken] = grant.id
        let now = clock.now
        let before = grants.count
        var remaining = grants
        grantPruning.run(&remaining, expired: { $0.refreshExpires <= now }, rank: { Double($0.lastUsed) })
        guard remaining.count < before else { return }
        for (id, pruned) in grants where remaining[id] == nil {
            if tracksChanges { changes.grants.insert(id) }
            if grantByRefreshToken[pruned.refreshToken] == id { grantByRefreshToken[pruned.refreshToken] = nil }
        }
        grants = remaining
    }
}
