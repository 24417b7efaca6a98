import AuthBridgeCore

/// The Ping SDK's default storages, shared by every client that does not name its own handle:
/// the SSO session (`SessionConfig` storage) and the OIDC tokens (`OidcClientConfig` storage).
/// Two journey clients with default storage therefore share one session and one token set, and an
/// OIDC client with default storage sees the journey's tokens (ping-rn-sdk.md §6). A client that
/// names `sessionStorageId`/`oidcStorageId`/`storageId` gets a slot of that name instead.
///
/// They live beside the old SDK's `TokenManager`, not in it: the successor SDK keeps its own
/// keychain entries, so an app mid-migration has two independent credential sets on one server.
public final class PingStores {
    public static let defaultKey = "default"

    /// AM's success body as the SDK stores it: `{tokenId, successUrl, realm}`.
    public struct SSOToken: Equatable, Sendable {
        public var value: String
        public var successUrl: String
        public var realm: String
    }

    public var sessions: [String: SSOToken] = [:]
    public var tokens: [String: AccessToken] = [:]
    /// The last user info fetched per token slot (`userinfo(cache: true)` reads it).
    public var userInfo: [String: JSONValue] = [:]

    public init() {}
}
