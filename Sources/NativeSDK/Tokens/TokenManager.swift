import AuthBridgeCore
import IdentityServer

/// FRAuth's token manager: the one owner of the user's credentials (the OAuth tokens and the SSO
/// token). Every change bumps `generation` and is reported to `observer` in order. Reading a token
/// near expiry refreshes it first.
///
/// It has no lock of its own: the Host serializes every face's transactions, so one refresh at a
/// time is guaranteed there — fifty callers near expiry find the first one's result, fresh.
public final class TokenManager {
    public private(set) var accessToken: AccessToken?
    public private(set) var ssoToken: String?
    public private(set) var generation: Int64 = 0
    /// Whether the credentials changed since the state was last saved.
    private var changes = WholeStateChange()
    private let client: OAuthClient
    private let clock: Clock
    private let threshold: Double
    /// Remote mode: see `SDKOptions.checksSessionOnRefresh`.
    private let checksSession: Bool

    /// Called with every change, in the order the changes happen. An observer must not call
    /// back into the manager.
    public var observer: ((TokenChange) -> Void)?

    init(client: OAuthClient, clock: Clock, threshold: Double, checksSession: Bool = false) {
        self.client = client
        self.clock = clock
        self.threshold = threshold
        self.checksSession = checksSession
    }

    // MARK: changes

    /// Stores tokens the native side obtained (login, exchange).
    func store(_ newToken: AccessToken, ssoToken: String?, reason: TokenChangeReason) {
        commit(newToken, ssoToken: ssoToken, reason: reason)
    }

    /// Stores tokens JS pushed, unless they equal the current ones (what stops echo loops).
    /// The SSO token is kept: JS tokens say nothing about the native session.
    /// Returns whether anything changed.
    @discardableResult
    public func adopt(_ pushed: AccessToken) -> Bool {
        if let accessToken, accessToken.syncFields == pushed.syncFields { return false }
        var adopted = pushed
        adopted.sessionToken = ssoToken
        commit(adopted, ssoToken: ssoToken, reason: .update)
        return true
    }

    /// Forgets the credentials. Returns false when there was nothing to forget.
    @discardableResult
    func clear(reason: TokenChangeReason) -> Bool {
        guard accessToken != nil || ssoToken != nil else { return false }
        commit(nil, ssoToken: nil, reason: reason)
        return true
    }

    /// The server ended an SSO session. When it is the one these credentials hold and it ended
    /// by a logout or endSession some other face made, or ran out of time (its Maximum Session or
    /// Idle Time, or evicted past the server's cap, found when the server next looks at it), the
    /// credentials go too (LOGOUT_EVENT `session_ended`, what remote mode reports when the
    /// tenant's session is gone): the user logged out of the web app is logged out of the native one.
    /// The SDK's own logout never gets here, because it clears the credentials before telling the
    /// server. An administrator's revocation is left for the next refresh to find, as
    /// `emulator.revokeSession` documents.
    public func sessionEnded(tokenId: String, cause: SessionEndCause) {
        guard cause != .administrator, tokenId == ssoToken else { return }
        clear(reason: .sessionEnded)
    }

    /// An administrator expired the user's access tokens at the server (`emulator.expireTokens`):
    /// the held one counts as expired from now, so the next `getAccessToken` refreshes it (and
    /// token sync tells JS, reason `refresh`). Nothing is sent now: the credentials are the same,
    /// only their time is up. Returns false when no access token is held or it had expired already.
    @discardableResult
    public func expireAccessToken() -> Bool {
        guard var token = accessToken, token.expire(at: clock.now) else { return false }
        accessToken = token
        changes.mark()
        return true
    }

    /// After `emulator.reset` restored the start state's credentials: the generation goes on
    /// from where it was (a host keeps the highest it saw and drops older ones), and when the
    /// credentials differ from those held before, JS is told (reason `reset`: a TOKEN_EVENT with
    /// the start state's tokens, or a LOGOUT_EVENT when it had none).
    public func continueAfterReset(generation previous: Int64, tokens held: AccessToken?) {
        generation = max(generation, previous)
        if accessToken != held {
            commit(accessToken, ssoToken: ssoToken, reason: .reset)
        } else {
            changes.mark()
        }
    }

    private func commit(_ newToken: AccessToken?, ssoToken: String?, reason: TokenChangeReason) {
        accessToken = newToken
        self.ssoToken = ssoToken
        generation += 1
        changes.mark()
        observer?(TokenChange(tokens: newToken, generation: generation, reason: reason))
    }

    // MARK: fresh tokens

    /// `TokenManager.getAccessToken`: the current token, refreshed first when it is within
    /// `oauthThreshold` seconds of expiry. A refused refresh falls back to the SSO session; when
    /// that is refused too, the credentials are cleared (a native logout) and the user must
    /// authenticate again. A transport failure changes nothing.
    public func freshAccessToken() throws(SDKError) -> AccessToken {
        guard let current = accessToken else { throw .noCurrentUser }
        guard current.isStale(now: clock.now, threshold: threshold) else { return current }
        if checksSession, let ssoToken, try !client.sessionIsValid(ssoToken) {
            // Ended at the server (a logout elsewhere, an admin): what the embedded server's
            // session observer does at once, found here at the first server contact.
            logInfo("the SSO session ended at the server: logging out")
            commit(nil, ssoToken: nil, reason: .sessionEnded)
            throw .authenticationRequired
        }
        var refused: SDKError
        do {
            let refreshed = try client.refresh(current, sessionToken: ssoToken)
            commit(refreshed, ssoToken: ssoToken, reason: .refresh)
            return refreshed
        } catch {
            guard case .oauth = error else { throw error }
            refused = error
        }
        logInfo("refresh refused (\(refused.message)); trying the SSO session")
        if let ssoToken {
            do {
                let authorized = try client.authorize(ssoToken: ssoToken)
                commit(authorized, ssoToken: ssoToken, reason: .session)
                return authorized
            } catch {
                guard case .oauth = error else { throw error }
                refused = error
            }
        }
        logInfo("the server no longer honours the credentials (\(refused.message)): logging out")
        // The SSO session expired as the server looked at it: the session observer has logged
        // out already (`session_ended`), once.
        guard accessToken != nil else { throw .authenticationRequired }
        commit(nil, ssoToken: nil, reason: ssoToken == nil ? .refreshRejected : .sessionRevoked)
        throw .authenticationRequired
    }
}

// MARK: saved state

/// The credentials, saved as one value under `native`; every file holds it.
extension TokenManager: StateOwner {
    public var stateKey: String { "native" }

    public var stateEntries: [StateEntry] { [StateEntry([], stateJSON)] }

    public func takeStateEdits() -> [StateEdit] { changes.edits(of: stateJSON) }

    public func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError) {
        guard let saved = entries.first(where: { $0.path.isEmpty }) else { throw StateError("\(stateKey): missing") }
        let reader = try StateReader(saved.value, path: stateKey)
        let generation = try reader.int("generation")
        let tokens = reader.has("tokens") ? try AccessToken(state: try reader.reader("tokens")) : nil
        let session = try reader.optionalString("ssoToken")
        accessToken = tokens
        ssoToken = session
        self.generation = generation
        changes.settle()
    }

    private var stateJSON: JSONValue {
        ["generation": .int(generation), "tokens": accessToken?.stateJSON ?? .null, "ssoToken": JSONValue(ssoToken)]
    }
}
