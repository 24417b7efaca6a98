import AuthBridgeCore

/// AM's REST operations as Swift calls (https://docs.pingidentity.com/pingam/8/am-authentication/authn-rest.html
/// and AM's OAuth 2.0 endpoints). Replies carry the HTTP status and
/// the JSON body exactly as AM sends them, so the SDK layer classifies an embedded reply and a
/// real tenant's reply with the same code. Thrown errors are transport failures only: an AM
/// error (401 Login failure, 400 invalid_grant…) is a reply, not a throw. The OAuth calls
/// (`OAuthServer`) are AM's under `/oauth2/realms/<realm>/`.
public protocol IdentityServer: OAuthServer {
    /// `POST /json/realms/<realm>/authenticate`
    func authenticate(_ request: AuthenticateRequest) throws(TransportError) -> ServerReply
    /// `POST /json/realms/<realm>/sessions?_action=logout` with the SSO token.
    func logoutSession(ssoToken: String) throws(TransportError) -> ServerReply
    /// `POST /json/realms/<realm>/sessions?_action=getSessionInfo` (or `refresh`, which also
    /// counts as activity): the session's properties, 401 Access Denied when it is not valid.
    func sessionInfo(ssoToken: String, refresh: Bool) throws(TransportError) -> ServerReply
    /// `POST /oauth2/realms/<realm>/introspect`, form-encoded (RFC 7662).
    func introspect(form: [String: String]) throws(TransportError) -> ServerReply
    /// `GET /oauth2/realms/<realm>/connect/jwk_uri`: the public keys the server's tokens are
    /// signed with (RFC 7517 JWK set).
    func jwks() throws(TransportError) -> ServerReply
    /// `…/json/realms/<realm>/users/<user>/devices/2fa/<kind>[/<uuid>]` (and `…/devices/profile`)
    /// with the caller's SSO token: a user's registered devices, listed, renamed, deleted or
    /// reset (`DevicesRequest`).
    func devices(_ request: DevicesRequest) throws(TransportError) -> ServerReply
    /// `POST /json/realms/<realm>/push/sns/message?_action=register|authenticate`: AM's push
    /// device endpoint, where an authenticator app answers a registration QR code or a push
    /// notification with `{messageId, jwt}` (ForgeRock/am-external `openam-push-notification`
    /// `sns/SnsMessageResource.java`). 200 `{}` when the answer is taken, AM's 400 otherwise.
    func pushMessage(_ action: PushAction, body: JSONValue) throws(TransportError) -> ServerReply
}

/// The two actions of AM's push device endpoint that an authenticator app calls.
public enum PushAction: String, Equatable, Sendable, CaseIterable {
    case register
    case authenticate
}

/// Which sign-off endpoint an end session goes to. A tenant's discovery can list two:
/// `end_session_endpoint` (OIDC RP-initiated logout) and Identity Cloud's
/// `ping_end_idp_session_endpoint`; the two SDK generations read different ones, so the caller
/// says which it means. The embedded server serves both at `/connect/endSession` and answers alike.
public enum EndSessionEndpoint: Equatable, Sendable {
    /// The ForgeRock SDK's sign-off: `ping_end_idp_session_endpoint` when discovery lists one,
    /// else `end_session_endpoint` (forgerock-ios-sdk `FROptions.discover`, the JavaScript SDK's
    /// `convertWellKnown`).
    case forgeRockSignOff
    /// `end_session_endpoint` alone, as the Ping SDK's OIDC client reads discovery
    /// (ping-ios-sdk `Oidc/Oidc/OpenIdConfiguration.swift`, whose sign-off in
    /// `Journey/Journey/Module/Oidc.swift` goes there; ping-android-sdk
    /// `journey/src/main/kotlin/com/pingidentity/journey/module/Oidc.kt` likewise).
    case endSessionEndpoint
}

/// Why an SSO session ended, as the server reports it to whoever holds it.
public enum SessionEndCause: String, Equatable, Sendable {
    /// `/sessions?_action=logout` with the session's token.
    case logout
    /// OIDC `/connect/endSession` with an id token of the session.
    case endSession = "end_session"
    /// An administrator ended the user's sessions (`emulator.revokeSession`).
    case administrator
    /// The session outlived AM's Maximum Session Time or Maximum Idle Time.
    case expired
    /// The server held more sessions than its cap and this one was the least recently used.
    case evicted
}

/// A reply as AM would send it over HTTP.
public struct ServerReply: Equatable, Sendable {
    public var status: Int
    /// The JSON body; `.null` when there is none.
    public var body: JSONValue
    /// Headers that matter to a client: `Location`, `Set-Cookie`.
    public var headers: [String: String]

    public init(status: Int, body: JSONValue = .null, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = headers
    }

    public var isSuccess: Bool { (200...302).contains(status) }
}

public struct AuthenticateRequest: Equatable, Sendable {
    /// `service` for a journey by name.
    public var authIndexType: String?
    public var authIndexValue: String?
    /// The previous step with its inputs filled; nil on the first call.
    public var payload: JSONValue?
    /// Resumes a suspended journey (`?suspendedId=`).
    public var suspendedId: String?
    /// `?noSession=true`: finish the journey without creating a session.
    public var noSession: Bool
    /// The caller's SSO token, when it sends one (its session cookie): a start for a journey the
    /// session already satisfies answers it at once; otherwise the journey runs, and nodes such as
    /// Get Session Data read the existing session through it.
    public var ssoToken: String?
    /// `?ForceAuth=true`: run the journey even when the session cookie already satisfies it.
    public var forceAuth: Bool
    /// Further query parameters a callback adds to the request (ping-android `IdpCallback`'s
    /// `RequestInterceptor`: what Apple's form_post gave the browser, `code`, `id_token`, `user`).
    public var parameters: [String: String] = [:]

    public init(
        authIndexType: String? = nil, authIndexValue: String? = nil, payload: JSONValue? = nil,
        suspendedId: String? = nil, noSession: Bool = false, ssoToken: String? = nil, forceAuth: Bool = false
    ) {
        self.ssoToken = ssoToken
        self.forceAuth = forceAuth
        self.authIndexType = authIndexType
        self.authIndexValue = authIndexValue
        self.payload = payload
        self.suspendedId = suspendedId
        self.noSession = noSession
    }

    public static func start(service: String) -> AuthenticateRequest {
        AuthenticateRequest(authIndexType: "service", authIndexValue: service)
    }

    public static func submit(_ payload: JSONValue) -> AuthenticateRequest {
        AuthenticateRequest(payload: payload)
    }
}

public struct AuthorizeRequest: Equatable, Sendable {
    public var ssoToken: String
    public var clientId: String
    public var redirectUri: String
    public var scope: String
    public var state: String
    public var codeChallenge: String
    public var codeChallengeMethod: String
    public var responseType: String
    /// The `iss` the code and its tokens name when the request came through another face of the
    /// same server (PingOne's `<origin>/<envId>/as`, whose discovery names it); nil for AM's.
    public var issuer: String?
    /// OIDC's `nonce` (OpenID Connect Core §3.1.2.1): the code's ID token carries it back in its
    /// `nonce` claim; nil (or empty) when the request had none.
    public var nonce: String?
    /// OIDC's `prompt` as the request sent it: the server refuses what AM refuses
    /// (`OpenIDPrompt.isValid`); what a valid one asks of the face (a login page) is the face's.
    public var prompt: String?

    public init(
        ssoToken: String, clientId: String, redirectUri: String, scope: String, state: String,
        codeChallenge: String, codeChallengeMethod: String = "S256", responseType: String = "code",
        issuer: String? = nil, nonce: String? = nil, prompt: String? = nil
    ) {
        self.issuer = issuer
        self.nonce = nonce
        self.prompt = prompt
        self.ssoToken = ssoToken
        self.clientId = clientId
        self.redirectUri = redirectUri
        self.scope = scope
        self.state = state
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
        self.responseType = responseType
    }
}

/// One call to AM's device endpoints (https://docs.pingidentity.com/pingam/8/am-authentication/authn-mfa-list-devices.html,
/// …/authn-mfa-reset-devices.html): whose devices, which kind (the path segment: `oath`, `push`,
/// `webauthn`, `binding`; the server answers 404 for another) and what to do.
public struct DevicesRequest: Equatable, Sendable {
    public enum Operation: Equatable, Sendable {
        /// `GET …?_queryFilter=true`: every device of the kind.
        case query
        /// `PUT …/<uuid>` with `{"deviceName": …}`.
        case rename(uuid: String, deviceName: String)
        /// `DELETE …/<uuid>`.
        case delete(uuid: String)
        /// `POST …?_action=reset` (OATH and push): every device of the kind deleted.
        case reset
    }

    /// The caller's SSO token (cookie or header); nil when it sent none.
    public var ssoToken: String?
    /// The user as the path names them: a username or the user's id.
    public var user: String
    public var kind: String
    public var operation: Operation

    public init(ssoToken: String?, user: String, kind: String, operation: Operation) {
        self.ssoToken = ssoToken
        self.user = user
        self.kind = kind
        self.operation = operation
    }
}

extension DevicesRequest {
    /// The `kind` of the Device Profile Save node's stored profiles, which AM serves beside the
    /// 2FA kinds at `…/users/<user>/devices/profile` (ping-ios-sdk `DeviceClient/DeviceClient/DeviceClient.swift`
    /// `profileEndpoint`, ping-android-sdk `foundation/device/device-client/…/Device.kt` `ProfileDevice`).
    public static let profileKind = "profile"

    /// The collection's path under the user: `devices/profile`, else `devices/2fa/<kind>`.
    public var collectionPath: String {
        kind == Self.profileKind ? "devices/profile" : "devices/2fa/\(PercentEncoding.escape(kind))"
    }

    /// The member a rename sets: a profile's `alias`, every other kind's `deviceName`.
    public var nameMember: String { kind == Self.profileKind ? "alias" : "deviceName" }
}

/// The server could not be reached or answered with something that is not HTTP+JSON.
public struct TransportError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}
