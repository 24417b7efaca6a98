import AuthBridgeCore

/// FRAuth's token manager: the one owner of the user's credentials (the OAuth tokens and the SSO
/// token). Every change bumps `generation` and is reported to `observer` in order. Reading a token
/// near expiry refreshes it first, one refresh at a time however many callers ask at once.
public final class TokenManager: @unchecked Sendable {
    private let lock = Lock()
    private var token: AccessToken?
    private var session: String?
    private var currentGeneration: Int64 = 0
    private let refreshFlight = SingleFlight<AccessToken, SDKError>()
    private let client: OAuthClient
    private let clock: Clock
    private let threshold: Double

    /// Called with every change, under the manager's lock, so observers see changes in the order
    /// they happened. An observer must not call back into the manager.
    public var observer: ((TokenChange) -> Void)?

    init(client: OAuthClient, clock: Clock, threshold: Double) {
        self.client = client
        self.clock = clock
        self.threshold = threshold
    }

    public var accessToken: AccessToken? { lock.withLock { token } }
    public var ssoToken: String? { lock.withLock { session } }
    public var generation: Int64 { lock.withLock { currentGeneration } }

    /// Runs `body` with the state held still: nothing changes until it returns.
    public func withState<T>(_ body: (_ tokens: AccessToken?, _ ssoToken: String?, _ generation: Int64) -> T) -> T {
        lock.withLock { body(token, session, currentGeneration) }
    }

    // MARK: changes

    /// Stores tokens the native side obtained (login, exchange).
    func store(_ newToken: AccessToken, ssoToken: String?, reason: TokenChangeReason) {
        lock.withLock { commit(newToken, ssoToken: ssoToken, reason: reason) }
    }

    /// Stores tokens JS pushed, unless they equal the current ones (what stops echo loops).
    /// The SSO token is kept: JS tokens say nothing about the native session.
    /// Returns whether anything changed.
    public func adopt(_ pushed: AccessToken) -> Bool {
        lock.withLock {
            if let token, token.syncFields == pushed.syncFields { return false }
            var adopted = pushed
            adopted.sessionToken = session
            commit(adopted, ssoToken: session, reason: .update)
            return true
        }
    }

    /// Forgets the credentials. Returns false when there was nothing to forget.
    @discardableResult
    func clear(reason: TokenChangeReason) -> Bool {
        lock.withLock {
            guard token != nil || session != nil else { return false }
            commit(nil, ssoToken: nil, reason: reason)
            return true
        }
    }

    private func commit(_ newToken: AccessToken?, ssoToken: String?, reason: TokenChangeReason) {
        token = newToken
        session = ssoToken
        currentGeneration += 1
        observer?(TokenChange(tokens: newToken, generation: currentGeneration, reason: reason))
    }

    // MARK: fresh tokens

    /// `TokenManager.getAccessToken`: the current token, refreshed first when it is within
    /// `oauthThreshold` seconds of expiry. A refused refresh falls back to the SSO session; when
    /// that is refused too, the credentials are cleared (a native logout) and the user must
    /// authenticate again. A transport failure changes nothing.
    public func freshAccessToken() throws(SDKError) -> AccessToken {
        guard let current = accessToken else { throw .noCurrentUser }
        guard current.isStale(now: clock.now, threshold: threshold) else { return current }
        return try refreshFlight.run { () throws(SDKError) in try refresh() }
    }

    private func refresh() throws(SDKError) -> AccessToken {
        let (start, ssoToken, startGeneration) = withState { ($0, $1, $2) }
        guard let start else { throw .noCurrentUser }
        // A run that finished while this caller waited for the lock already did the work.
        guard start.isStale(now: clock.now, threshold: threshold) else { return start }

        var refused: SDKError
        do {
            return try settle(try client.refresh(start, sessionToken: ssoToken), since: startGeneration, reason: .refresh)
        } catch {
            guard case .oauth = error else { throw error }
            refused = error
        }
        logInfo("refresh refused (\(refused.message)); trying the SSO session")
        if let ssoToken {
            do {
                return try settle(try client.authorize(ssoToken: ssoToken), since: startGeneration, reason: .session)
            } catch {
                guard case .oauth = error else { throw error }
                refused = error
            }
        }
        logInfo("the server no longer honours the credentials (\(refused.message)): logging out")
        lock.withLock {
            if currentGeneration == startGeneration {
                commit(nil, ssoToken: nil, reason: ssoToken == nil ? .refreshRejected : .sessionRevoked)
            }
        }
        throw .authenticationRequired
    }

    /// Keeps a refresh's result unless the state changed while it ran (JS logged out or pushed
    /// other tokens): then the current state wins and the result is dropped.
    private func settle(_ refreshed: AccessToken, since generation: Int64, reason: TokenChangeReason) throws(SDKError) -> AccessToken {
        let outcome: AccessToken? = lock.withLock {
            guard currentGeneration == generation else { return token }
            commit(refreshed, ssoToken: session, reason: reason)
            return refreshed
        }
        guard let outcome else { throw .authenticationRequired }
        return outcome
    }
}

// MARK: saved state

extension TokenManager {
    public var snapshot: JSONValue {
        withState { token, session, generation in
            ["generation": .int(generation), "tokens": token?.stateJSON ?? .null, "ssoToken": JSONValue(session)]
        }
    }

    public func restore(_ reader: StateReader) throws(StateError) {
        let generation = try reader.int("generation")
        let tokens = reader.has("tokens") ? try AccessToken(state: try reader.reader("tokens")) : nil
        let session = try reader.optionalString("ssoToken")
        lock.withLock {
            token = tokens
            self.session = session
            currentGeneration = generation
        }
    }
}
