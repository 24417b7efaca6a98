import AMHTTP
import AuthBridgeCore
import HTTPServer
import Host

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
    static func all(view: Host.View, corsOrigins: [String]) -> [HTTPSurface] {
        let amConfig = HTTPFace.config(of: view, corsOrigins: corsOrigins)
        return [
            PingOneSurface.surface(view: view, corsOrigins: corsOrigins),
            HTTPSurface(
                name: "am", claims: { _ in true },
                respond: { request, world in
                    AMRoutes(server: world.server, config: amConfig).respond(to: request)
                }),
        ]
    }
}
