import AMHTTP
import AdminHTTP
import AuthBridgeCore
import HTTPServer
import Host
import Inspector

/// One part of what the single HTTP listener serves, under paths of its own: AM's REST API, and
/// beside it the other surfaces (docs/http.md). A new surface is a new entry in `HTTPSurfaces.all`,
/// never a branch inside another's routes. Surfaces hold no state: each request is answered in
/// one Host unit, with the world.
struct HTTPSurface: Sendable {
    /// For logs and the routes a refusal lists.
    let name: String
    /// Whether the request is this surface's (decided from the path alone, before the world is entered).
    let claims: @Sendable (HTTPRequest) -> Bool
    let respond: @Sendable (HTTPRequest, World) -> HTTPResponse
}

enum HTTPSurfaces {
    /// The surfaces in the order they are asked; AM's REST API is last and answers whatever no
    /// other claims (with AM's 404 for an unknown path).
    static func all(host: Host, corsOrigins: [String]) -> [HTTPSurface] {
        let view = host.view
        let amConfig = HTTPFace.config(of: view, corsOrigins: corsOrigins)
        // Decided once: the face's origin does not change while it serves.
        let loopback = AdminAPI.served(atOrigin: view.httpOrigin)
        return [
            // The admin API exists only on a loopback listener (docs/seed.md).
            HTTPSurface(
                name: "admin", claims: { loopback && AdminAPI.claims($0) },
                respond: { request, world in
                    AdminAPI(corsOrigins: corsOrigins, ownOrigin: view.httpOrigin).respond(request, world: world)
                }),
            // The inspector page: where the admin API is, whose endpoints its actions call (docs/inspector.md).
            HTTPSurface(
                name: "inspector",
                claims: { loopback && Inspector.claims($0) },
                respond: { request, world in Inspector.respond(request, world: world, host: host) }),
            // PingOne's sign-on page, where its /as/authorize sends a browser without a session.
            PingOneSignOnPage.surface(view: view),
            PingOneSurface.surface(view: view, corsOrigins: corsOrigins),
            HTTPSurface(
                name: "am", claims: { _ in true },
                respond: { request, world in
                    AMRoutes(server: world.server, config: HTTPFace.config(amConfig, clientsOf: world)).respond(
                        to: request)
                }),
        ]
    }
}
