import AuthBridgeCore

/// The Ping SDK's default storages, shared by every client that does not name its own handle:
/// the SSO session (`SessionConfig` storage) and the OIDC tokens (`OidcClientConfig` storage).
/// Two journey clients with default storage therefore share one session and one token set, and an
/// OIDC client with default storage sees the journey's tokens (docs/ping-modules.md). A client that
/// names a registered storage handle gets a slot of that name instead.
///
/// They live beside the old SDK's `TokenManager`, not in it: the successor SDK keeps its own
/// keychain entries, so an app mid-migration has two independent credential sets on one server.
///
/// Sessions and tokens outlive the app (ping-ios keeps both in the keychain, `KeychainStorage`;
/// ping-android in `EncryptedDataStoreStorage`), so `--state-dir` saves them. The user info cache,
/// the clients and the journeys live in memory on a device and start empty after a restart.
public final class PingStores {
    public static let defaultKey = "default"

    /// AM's success body as the SDK stores it: `{tokenId, successUrl, realm}`.
    public struct SSOToken: Equatable, Sendable {
        public var value: String
        public var successUrl: String
        public var realm: String
    }

    public var sessions: [String: SSOToken] = [:] {
        didSet { if sessions != oldValue { changes.mark() } }
    }
    public var tokens: [String: AccessToken] = [:] {
        didSet { if tokens != oldValue { changes.mark() } }
    }
    /// The last user info fetched per token slot (`userinfo(cache: true)` reads it).
    public var userInfo: [String: JSONValue] = [:]
    private var changes = WholeStateChange()

    public init() {}
}

// MARK: saved state

/// The stores, saved as one value under `ping`. Files saved before they were kept have none:
/// empty stores.
extension PingStores: StateOwner {
    public var stateKey: String { "ping" }

    public var stateEntries: [StateEntry] { [StateEntry([], stateJSON)] }

    public func takeStateEdits() -> [StateEdit] { changes.edits(of: stateJSON) }

    public func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError) {
        var sessions: [String: SSOToken] = [:]
        var tokens: [String: AccessToken] = [:]
        if let saved = entries.first(where: { $0.path.isEmpty }) {
            let reader = try StateReader(saved.value, path: stateKey)
            for entry in try reader.readers("sessions") {
                let slot = try entry.string("slot")
                guard sessions[slot] == nil else { throw StateError("\(entry.path).slot: \(slot) appears twice") }
                sessions[slot] = SSOToken(
                    value: try entry.string("value"), successUrl: try entry.string("successUrl"),
                    realm: try entry.string("realm"))
            }
            for entry in try reader.readers("tokens") {
                let slot = try entry.string("slot")
                guard tokens[slot] == nil else { throw StateError("\(entry.path).slot: \(slot) appears twice") }
                tokens[slot] = try AccessToken(state: try entry.reader("token"))
            }
        }
        self.sessions = sessions
        self.tokens = tokens
        userInfo = [:]
        changes.settle()
    }

    /// Slots in key order, so the same stores always save the same bytes.
    private var stateJSON: JSONValue {
        [
            "sessions": .array(
                sessions.keys.sorted().map { key in
                    let session = sessions[key]!
                    return [
                        "slot": .string(key), "value": .string(session.value),
                        "successUrl": .string(session.successUrl),
                        "realm": .string(session.realm),
                    ]
                }),
            "tokens": .array(
                tokens.keys.sorted().map { key in ["slot": .string(key), "token": tokens[key]!.stateJSON] }),
        ]
    }
}
