/// Why the native token state changed. The raw value is the `reason` the events carry.
public enum TokenChangeReason: String, Sendable {
    case login
    /// The refresh grant issued new tokens.
    case refresh
    /// The refresh token was refused and the SSO session re-authorized the app.
    case session
    case exchange
    /// JS pushed its tokens (`tokenUpdate`).
    case update
    /// JS logged out (`logout()`).
    case logout
    case nativeLogout = "native_logout"
    case refreshRejected = "refresh_rejected"
    case sessionRevoked = "session_revoked"
    /// The SSO session these credentials hold was ended at the server by another face (a logout
    /// or endSession over HTTP).
    case sessionEnded = "session_ended"
    /// `emulator.reset` put back the credentials of the start state (docs/seed.md).
    case reset

    /// Changes JS asked for are never echoed back to it.
    public var isFromJS: Bool { self == .update || self == .logout }
}

/// One change of the native token state, as observers see it.
public struct TokenChange: Sendable {
    /// The tokens now held; nil after a logout.
    public var tokens: AccessToken?
    public var generation: Int64
    public var reason: TokenChangeReason
}
