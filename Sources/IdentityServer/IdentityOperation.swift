/// The operations of `IdentityServer` by name: what a fault (`emulator.fault`) names to make the
/// server fail a call, whichever face or SDK makes it.
public enum IdentityOperation: String, CaseIterable, Equatable, Sendable {
    case authenticate, authorize, token, userInfo, revoke, endSession, logoutSession, validateSession
    case sessionInfo, introspect, jwks, devices, pushMessage
}

/// AM's REST endpoints by name, as the HTTP face routes them: what a fault on the HTTP face names
/// (`AMRoute` in AMHTTP maps each path to one).
public enum AMEndpoint: String, CaseIterable, Equatable, Sendable {
    case authenticate, sessions, serverInfo, authorize, accessToken, userInfo, revoke, introspect, endSession
    case wellKnown, jwks, devices, pushMessage, loginPage
}

/// The operations of `PingOneServer` by name (docs/faults.md): what a fault names to make PingOne
/// fail a request, whether RNPingDavinci or a browser's `davinci-client` sends it. The request's
/// method and path say which it is, as PingOne routes them.
public enum PingOneOperation: String, CaseIterable, Equatable, Sendable {
    /// `/as/authorize`: with `response_mode=pi.flow`, the flow's start (`RNPingDavinci.start`).
    case authorize = "pingOneAuthorize"
    /// A form posted to `_links.next` (`/davinci/connections/{id}/capabilities/{capability}`:
    /// `RNPingDavinci.next`).
    case `continue` = "pingOneContinue"
    case token = "pingOneToken"
    case userInfo = "pingOneUserInfo"
    case revoke = "pingOneRevoke"
    case signOff = "pingOneSignOff"
    /// `/as/.well-known/openid-configuration`, which the DaVinci client reads before its first start.
    case discovery = "pingOneDiscovery"
    /// An IdP button's leg (`/davinci/idp/…`): its links, the provider's credential, the resume.
    case idp = "pingOneIdp"

    /// The operation a request asks for, nil when PingOne serves no such request (a 404).
    public init?(_ request: PingOneRequest, environmentId: String) {
        let parts = request.path.split(separator: "/").map(String.init)
        guard parts.first == environmentId else { return nil }
        let rest = Array(parts.dropFirst())
        // `_links.next.href`: `/davinci/connections/{connectionId}/capabilities/{capability}`.
        let continuing =
            rest.count == 5 && rest[0] == "davinci" && rest[1] == "connections" && rest[3] == "capabilities"
        if rest.count >= 2, rest[0] == "davinci", rest[1] == "idp" {
            self = .idp
            return
        }
        switch (request.method.uppercased(), continuing ? "davinci/continue" : rest.joined(separator: "/")) {
        case ("GET", "as/authorize"), ("POST", "as/authorize"): self = .authorize
        case ("POST", "davinci/continue"): self = .continue
        case ("POST", "as/token"): self = .token
        case ("GET", "as/userinfo"), ("POST", "as/userinfo"): self = .userInfo
        case ("POST", "as/revoke"): self = .revoke
        case ("GET", "as/signoff"): self = .signOff
        case ("GET", "as/.well-known/openid-configuration"): self = .discovery
        default: return nil
        }
    }
}
