import AuthBridgeCore
import IdentityServer

/// Which AM endpoint a path names. AM's layouts are all accepted, as SDKs use each of them
/// (forgerock-javascript-sdk `packages/javascript-sdk/src/util/url.ts`, forgerock-ios-sdk
/// `FRAuth/FRAuth/Config/ServerConfig.swift`): with or without the `/am` prefix, the realm as
/// `realms/root/realms/<realm>`, `realms/<realm>` or just `<realm>`.
enum AMRoute: Equatable {
    case authenticate
    case sessions
    case serverInfo
    case authorize
    case accessToken
    case userInfo
    case revoke
    case introspect
    case endSession
    case wellKnown
    case jwks
    /// `users/<user>/devices/2fa/<kind>` or `users/<user>/devices/profile`, and `…/<uuid>` for one
    /// device (`DevicesEndpoint.swift`).
    case devices(user: String, kind: String, uuid: String?)
    case pushMessage
    /// `…/UI/Login`: the login page `/authorize` sends a browser to (`LoginPageEndpoint.swift`).
    case loginPage

    enum Miss: Error, Equatable {
        case noSuchPath
        case otherRealm(String)
    }

    static func find(_ path: String, realm: String) -> Result<AMRoute, Miss> {
        var segments = path.split(separator: "/").map(String.init)
        if segments.first == "am" { segments.removeFirst() }
        // AM's login UI sits under the deployment, its realm in the query (`?realm=/alpha`).
        if segments == ["UI", "Login"] { return .success(.loginPage) }
        guard let kind = segments.first, kind == "json" || kind == "oauth2" else { return .failure(.noSuchPath) }
        var rest = Array(segments.dropFirst())
        let named: String
        if rest.first == "realms" {
            if rest.count >= 4, rest[1] == "root", rest[2] == "realms" {
                named = rest[3]
                rest.removeFirst(4)
            } else if rest.count >= 2 {
                named = rest[1]
                rest.removeFirst(2)
            } else {
                return .failure(.noSuchPath)
            }
        } else if let first = rest.first, first == realm {
            named = first
            rest.removeFirst()
        } else {
            // No realm in the path: the root realm, which this server does not serve.
            named = "root"
        }
        guard let route = kind == "json" ? json(rest) : oauth2(rest) else { return .failure(.noSuchPath) }
        guard named == realm else { return .failure(.otherRealm(named)) }
        return .success(route)
    }

    private static func json(_ rest: [String]) -> AMRoute? {
        switch rest {
        case ["authenticate"]: return .authenticate
        case ["sessions"]: return .sessions
        case ["serverinfo", "*"]: return .serverInfo
        case let path
        where path.count >= 4 && path.count <= 5 && path[0] == "users" && path[2...3] == ["devices", "profile"]:
            return .devices(
                user: PercentEncoding.unescape(path[1]), kind: DevicesRequest.profileKind,
                uuid: path.count == 5 ? PercentEncoding.unescape(path[4]) : nil)
        case let path
        where path.count >= 5 && path.count <= 6 && path[0] == "users" && path[2...3] == ["devices", "2fa"]
            && path[4] != DevicesRequest.profileKind:
            return .devices(
                user: PercentEncoding.unescape(path[1]), kind: path[4],
                uuid: path.count == 6 ? PercentEncoding.unescape(path[5]) : nil)
        case ["push", "sns", "message"]: return .pushMessage
        default: return nil
        }
    }

    private static func oauth2(_ rest: [String]) -> AMRoute? {
        switch rest {
        case ["authorize"]: return .authorize
        case ["access_token"]: return .accessToken
        case ["userinfo"]: return .userInfo
        case ["token", "revoke"]: return .revoke
        case ["introspect"]: return .introspect
        case ["connect", "endSession"]: return .endSession
        case [".well-known", "openid-configuration"]: return .wellKnown
        case ["connect", "jwk_uri"]: return .jwks
        default: return nil
        }
    }

    /// The methods AM answers on each endpoint (HEAD wherever GET is).
    var methods: [String] {
        switch self {
        case .authenticate, .sessions, .accessToken, .revoke, .introspect, .pushMessage: return ["POST"]
        case .authorize, .userInfo, .endSession, .loginPage: return ["GET", "HEAD", "POST"]
        case .serverInfo, .wellKnown, .jwks: return ["GET", "HEAD"]
        case .devices(_, _, nil): return ["GET", "HEAD", "POST"]
        case .devices: return ["PUT", "DELETE"]
        }
    }
}
