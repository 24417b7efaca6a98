import AuthBridgeCore
import EmbeddedAM

/// One run of a flow, from `/as/authorize` to its code: where it stands, what its forms
/// collected, and the authorization request it answers. Held in memory only, as PingOne holds an
/// interaction for its lifetime; a restart ends the ones under way (the client starts again).
struct Interaction: Sendable {
    var id: String
    var token: String
    var flow: DaVinciFlow
    /// The form the client is on (where an error returns it to).
    var form: String
    /// The fields of that form as they were sent (options filled in), by key.
    var shownFields: [String: JSONObject] = [:]
    /// The id of the answer the client last got (`id`, echoed back in the request body).
    var stepId: String
    /// Every value the forms collected, by field key; connectors read them.
    var values: [String: JSONValue] = [:]
    /// The user a connector found or created.
    var userId: String?
    /// A one-time code a connector sent, waiting for its check.
    var pendingCode: PendingCode?
    /// The user's authenticator app device a `DEVICE_AUTHENTICATION` field chose: the passcode
    /// is checked against it instead of a sent code.
    var authenticator: AuthenticatorCheck?
    /// A TOTP device registered in this interaction, waiting for its first code (PingOne's
    /// `ACTIVATION_REQUIRED`): the QR code field shows its URI.
    var pendingDevice: PendingDevice?
    /// After a browser's sign-in at an external provider: the `continueToken` it was sent back
    /// with, and the node the IdP button leads to.
    var idpResume: (token: String, target: String)?
    var authorization: AuthorizationParameters
}

struct PendingCode: Sendable {
    var code: String
    var expiresAt: Double
    var attempts = 0
}

struct AuthenticatorCheck: Sendable {
    var deviceId: String
    var attempts = 0
}

struct PendingDevice: Sendable {
    var device: OathDeviceProfile
    /// `otpauth://totp/<issuer>:<account>?secret=…&issuer=…`, what the QR code holds.
    var uri: String
    var attempts = 0
}

/// What `/as/authorize` asked for, kept to mint the code at the end.
struct AuthorizationParameters: Equatable, Sendable {
    var clientId: String
    var redirectUri: String
    var scope: String
    var state: String
    var codeChallenge: String
    var codeChallengeMethod: String
    var nonce: String?
}

/// The interactions under way, bounded: past the cap the oldest goes.
struct InteractionBook {
    private var byId: [String: Interaction] = [:]
    private var order: [String] = []
    let cap: Int

    init(cap: Int) { self.cap = cap }

    subscript(id: String) -> Interaction? {
        get { byId[id] }
        set {
            if byId[id] == nil, newValue != nil { order.append(id) }
            byId[id] = newValue
            if newValue == nil { order.removeAll { $0 == id } }
            while order.count > cap { byId[order.removeFirst()] = nil }
        }
    }

    var count: Int { byId.count }
}
