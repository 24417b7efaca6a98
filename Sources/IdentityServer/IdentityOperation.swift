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
