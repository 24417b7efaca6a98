import AuthBridgeCore

/// The native half of token sync (docs/token-sync.md): keeps JS told of every native change
/// of the tokens, never echoes what JS itself did, and says nothing until JS is listening.
///
/// It is called only inside a Host transaction, so events leave in the order the changes happened.
public final class TokenSync {
    public static let tokenEvent = "TOKEN_EVENT"
    public static let logoutEvent = "LOGOUT_EVENT"
    public static let tokenRequestEvent = "TOKEN_REQUEST_EVENT"
    public static let events = [tokenEvent, logoutEvent, tokenRequestEvent]

    private let tokens: TokenManager
    private let random: RandomSource
    private let clock: Clock
    /// Where events go: the Host hands them to the stdio host as JSON-RPC notifications.
    public var emit: (_ event: String, _ params: JSONValue) -> Void = { _, _ in }
    /// The last transitions (the inspector), recorded here as they happen: every event leaves
    /// through `send`, every change passes `tokensChanged`.
    public private(set) var history = TokenSyncHistory()

    private var ready = false
    /// An explicit token request made before JS was listening; delivered on ready.
    private var pendingRequestId: String?

    public init(tokens: TokenManager, random: RandomSource, clock: Clock) {
        self.tokens = tokens
        self.random = random
        self.clock = clock
        tokens.observer = { [unowned self] change in self.tokensChanged(change) }
    }

    /// `tokenSyncReady()`: JS listens now. Whatever happened before is coalesced into the current
    /// state, sent once: TOKEN_EVENT when native has tokens, else TOKEN_REQUEST_EVENT. A second
    /// call (JS reloaded) sends the state again.
    public func markReady() {
        ready = true
        let pending = pendingRequestId
        pendingRequestId = nil
        if let token = tokens.accessToken {
            send(Self.tokenEvent, Self.tokenEventParams(token, generation: tokens.generation, reason: "ready"))
            if let pending { send(Self.tokenRequestEvent, ["requestId": .string(pending), "reason": "requested"]) }
        } else {
            send(Self.tokenRequestEvent, ["requestId": .string(pending ?? newRequestId()), "reason": "ready"])
        }
    }

    /// `emulator.requestToken`: native asks JS for its tokens. Held until ready when JS is not
    /// listening yet. Returns the request's id and whether it went out now.
    public func requestToken() -> (requestId: String, delivered: Bool) {
        let id = pendingRequestId ?? newRequestId()
        guard ready else {
            pendingRequestId = id
            return (id, false)
        }
        send(Self.tokenRequestEvent, ["requestId": .string(id), "reason": "requested"])
        return (id, true)
    }

    public var isReady: Bool { ready }
    public var pendingTokenRequest: String? { pendingRequestId }

    private func newRequestId() -> String { random.uuid().lowercased() }

    private func tokensChanged(_ change: TokenChange) {
        let reason = change.reason.rawValue
        guard ready, !change.reason.isFromJS else {
            let name =
                change.reason.isFromJS
                ? (change.reason == .update ? "tokenUpdate" : "logout")
                : (change.tokens == nil ? Self.logoutEvent : Self.tokenEvent)
            history.record(
                .init(
                    at: clock.now, kind: change.reason.isFromJS ? .fromJS : .held, name: name, reason: reason,
                    generation: change.generation))
            return
        }
        if let token = change.tokens {
            send(Self.tokenEvent, Self.tokenEventParams(token, generation: change.generation, reason: reason))
        } else {
            send(Self.logoutEvent, ["reason": .string(reason), "generation": .int(change.generation)])
        }
    }

    /// Every event to JS leaves here, and is recorded as it leaves.
    private func send(_ event: String, _ params: JSONValue) {
        history.record(
            .init(
                at: clock.now, kind: .sent, name: event, reason: params["reason"]?.stringValue ?? "",
                generation: params["generation"]?.intValue))
        emit(event, params)
    }

    public static func tokenEventParams(_ token: AccessToken, generation: Int64, reason: String) -> JSONValue {
        var params = token.syncFields
        params["generation"] = .int(generation)
        params["reason"] = .string(reason)
        return .object(params)
    }
}
