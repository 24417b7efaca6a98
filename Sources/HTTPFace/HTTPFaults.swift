import AMHTTP
import AuthBridgeCore
import HTTPServer
import Host

/// The fault plan on the HTTP face (docs/faults.md): a request a fault hits by its route or path
/// is failed before any surface answers it; one whose identity-server call a fault hits is
/// answered by the surface as usual. Either way, what the hit asks of the connection (a delay,
/// a dropped connection, silence) becomes the response's `delivery`, which the connection
/// carries out after the unit, with the world released.
struct HTTPFaults: Sendable {
    let config: AMHTTPConfig
    /// `/{envId}/`: a status fault on a path under it is PingOne's error, not AM's.
    let pingOnePrefix: String

    func respond(_ request: HTTPRequest, _ world: World, surface: () -> HTTPResponse) -> HTTPResponse {
        let plan = world.faultPlan
        plan.discardEffect()
        // A browser's preflight is not the request a test means to fail.
        let hit =
            request.method == "OPTIONS"
            ? nil : plan.hit(endpoint: AMRoutes.endpoint(of: request.path, realm: config.realm), path: request.path)
        var response: HTTPResponse
        switch hit {
        case .status(let status, let message)? where request.path.hasPrefix(pingOnePrefix):
            response = PingOneSurface.failure(request, status: status, message: message, config: config)
        case .status(let status, let message)?:
            response = AMRoutes.failure(request, status: status, message: message, config: config)
        case .drop?, .timeout?:
            // Never sent: the delivery below closes the connection without it.
            response = HTTPResponse(status: 504, text: "fault\n")
        case .latency?, nil:
            response = surface()
        }
        let request = "\(request.method) \(request.path)"
        switch plan.takeEffect() {
        case .delay(let seconds)?:
            logInfo("HTTP fault: \(request) answered \(seconds) s late")
            response.delivery = .after(seconds: seconds)
        case .drop?:
            logInfo("HTTP fault: \(request) dropped")
            response.delivery = .drop
        case .timeout(let seconds)?:
            logInfo("HTTP fault: \(request) unanswered for \(seconds) s")
            response.delivery = .silence(seconds: seconds)
        case nil: break
        }
        return response
    }
}
