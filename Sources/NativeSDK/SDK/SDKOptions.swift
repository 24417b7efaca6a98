/// What the app passes to `FRAuth.start(options:)` (`ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/Config/FROptions.swift`): the same keys and
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
    /// Whether a refresh first asks the server whether the SSO session still lives. The embedded
    /// server reports an ended session at once; a real tenant tells no one, so in remote mode the
    /// bridge finds out when it next needs the server for the tokens, as a device would.
    public var checksSessionOnRefresh = false

    public init() {}
}
