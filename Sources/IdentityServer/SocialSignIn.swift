import AuthBridgeCore

/// The seam between an app's provider SDKs (Google Sign-In, Sign in with Apple, Facebook Login)
/// and the identity provider behind them. On a device each SDK talks to its own provider, never
/// to AM: the app gets a credential and hands it to AM in an IdPCallback, and AM checks it with
/// the provider. The embedded server's emulated providers answer this; with a real tenant there
/// is none, and a social sign-in fails as on a device without the provider's SDK.
public protocol SocialSignIn: AnyObject {
    func signIn(_ request: SocialSignInRequest) throws(SocialSignInError) -> SocialCredential
}

/// The providers the native SDKs have a handler for (ping-ios `ExternalIdPGoogle`,
/// `ExternalIdPApple`, `ExternalIdPFacebook`; ping-android `external-idp` `GoogleHandler.kt`,
/// `FacebookHandler.kt`, `journey/AppleHandler.kt`).
public enum SocialProviderKind: String, CaseIterable, Equatable, Sendable {
    case google, apple, facebook

    /// The handler a provider name picks, as the SDKs pick it: by a case-insensitive substring
    /// (`IdpCallback.getIdpHandler` on Android; iOS also takes `siwa` for Apple,
    /// `RNPingExternalIdpCommon.resolveIdpHandler`).
    public init?(providerName: String, acceptsSiwa: Bool) {
        let name = providerName.lowercased()
        if name.contains("apple") || (acceptsSiwa && name.contains("siwa")) {
            self = .apple
        } else if name.contains("google") {
            self = .google
        } else if name.contains("facebook") {
            self = .facebook
        } else {
            return nil
        }
    }
}

/// What the app's provider SDK asks its provider for: the client id AM's IdPCallback names (the
/// audience of the ID token), the scopes and AM's nonce.
public struct SocialSignInRequest: Equatable, Sendable {
    public var kind: SocialProviderKind
    public var clientId: String
    public var scopes: [String]
    public var nonce: String

    public init(kind: SocialProviderKind, clientId: String, scopes: [String], nonce: String) {
        self.kind = kind
        self.clientId = clientId
        self.scopes = scopes
        self.nonce = nonce
    }
}

/// What a provider gives the app's SDK: Google an ID token; Apple an ID token, an authorization
/// code and the user's name and e-mail (`user`); Facebook an access token.
public struct SocialCredential: Equatable, Sendable {
    public var idToken: String?
    public var authorizationCode: String?
    public var accessToken: String?
    /// Apple's `user` object (`name`, `email`), which its SDK hands the app with the tokens.
    public var user: JSONValue?

    public init(
        idToken: String? = nil, authorizationCode: String? = nil, accessToken: String? = nil, user: JSONValue? = nil
    ) {
        self.idToken = idToken
        self.authorizationCode = authorizationCode
        self.accessToken = accessToken
        self.user = user
    }
}

/// Why a provider gave nothing.
public enum SocialSignInError: Error, Equatable, Sendable {
    /// The provider has no test account signed in (the embedded config names none).
    case noAccount(SocialProviderKind)
    /// The request names no client (Google's SDK: "Client ID is required.").
    case missingClientId
}
