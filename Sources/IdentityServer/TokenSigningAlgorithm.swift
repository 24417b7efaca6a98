import AuthBridgeCore

/// What the issuer signs its JWTs with: AM's client setting "ID Token Signing Algorithm" and its
/// provider setting "OAuth2 Token Signing Algorithm" offer these (among HMAC and others this
/// server does not sign with). A secret is never published, so only asymmetric ones are here.
public enum TokenSigningAlgorithm: String, Sendable, CaseIterable, Hashable {
    case rs256 = "RS256"
    case es256 = "ES256"
    case ps256 = "PS256"

    public var jws: JWS.Algorithm {
        switch self {
        case .rs256: .rs256
        case .es256: .es256
        case .ps256: .ps256
        }
    }
}
