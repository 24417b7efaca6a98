import AuthBridgeCore
import NativeSDK

/// A read-only view of the native state for assertions (`emulator.state`).
public struct NativeStateView: Sendable {
    public var now: Double
    public var generation: Int64
    public var ready: Bool
    public var pendingTokenRequest: String?
    public var tokens: AccessToken?
    /// Whether the token is within the refresh threshold of its expiry.
    public var stale: Bool
    public var hasSSOSession: Bool
    public var users: Int
    public var sessions: Int
    public var refreshCount: Int

    init(_ host: World) {
        now = host.clock.now
        generation = host.sdk.tokens.generation
        ready = host.sync.isReady
        pendingTokenRequest = host.sync.pendingTokenRequest
        tokens = host.sdk.tokens.accessToken
        stale = tokens?.isStale(now: now, threshold: host.sdk.options.oauthThreshold) ?? false
        hasSSOSession = host.sdk.tokens.ssoToken != nil
        users = host.embedded.users.count
        sessions = host.embedded.sessions.count
        refreshCount = host.embedded.refreshCount
    }
}
