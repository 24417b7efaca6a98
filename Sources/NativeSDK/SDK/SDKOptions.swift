/// What the app passes to `FRAuth.start(options:)` (bridge-api.md §6): the same keys and
/// defaults as the iOS SDK's FROptions.
public struct SDKOptions: Sendable {
    public var realm = "alpha"
    public var cookieName = "iPlanetDirectoryPro"
    public var oauthClientId = "ReactNativeOAuthClient"
    public var oauthRedirectUri = "https://com.example.reactnative.todo/callback"
    public var oauthScope = "openid profile email"
    public var authServiceName = "Login"
    public var registrationServiceName = "Registration"
    /// Seconds before expiry at which an access token counts as stale (`forgerock_oauth_threshold`).
    public var oauthThreshold: Double = 60

    public init() {}
}
