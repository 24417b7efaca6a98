import AMHTTP
import AuthBridgeCore
import HTTPServer
import Host

/// The Host over HTTP: AM's REST API on a listener, each request one Host unit of work
/// (`host.perform`), so HTTP and stdio see one state in one total order. A request is answered
/// once its changes are durable (503, the world rolled back, when they cannot be), and the events
/// it causes (a LOGOUT_EVENT when the native session is ended here) reach the stdio host as the
/// unit ends, without waiting for the host to write.
public enum HTTPFace {
    /// Serves `host` on `listener`'s own thread.
    public static func start(host: Host, listener: HTTPServer, corsOrigins: [String]) {
        listener.start(handler(host: host, corsOrigins: corsOrigins))
    }

    /// Serves `host` on the calling thread (`--no-stdio`): returns only if the listener stops.
    public static func serve(host: Host, listener: HTTPServer, corsOrigins: [String]) {
        listener.serve(handler(host: host, corsOrigins: corsOrigins))
    }

    public static func handler(host: Host, corsOrigins: [String]) -> HTTPServer.Handler {
        let surfaces = HTTPSurfaces.all(host: host, corsOrigins: corsOrigins)
        let faults = HTTPFaults(
            config: config(of: host.view, corsOrigins: corsOrigins),
            pingOnePrefix: "/\(host.view.pingOneEnvironmentId)/")
        return { [host] request in
            // Every surface answers: AM's, the last, claims whatever the others do not.
            let surface = surfaces.first { $0.claims(request) } ?? surfaces[surfaces.count - 1]
            // The inspector's own requests stay out of the timeline it shows.
            let timeline = surface.name == "inspector" ? nil : host.timeline
            let began = timeline.map { ($0.now, ContinuousClock.now) }
            // The routes hold no state of their own: built in the unit, around the world.
            let (outcome, concern) = host.performNoting({ world in
                faults.respond(request, world) { surface.respond(request, world) }
            })
            if let timeline, let began {
                HTTPTimeline.record(request, outcome, concern: concern, began: began, into: timeline)
            }
            switch outcome {
            case .success(let response): return response
            case .failure(let failure):
                let body = JSONWriter().bytes([
                    "code": 503, "reason": "Service Unavailable",
                    "message": .string("State not saved: the change was undone (\(failure.reason))"),
                ])
                return HTTPResponse(
                    status: 503, headers: [.init("Content-Type", "application/json;charset=UTF-8")], body: body)
            }
        }
    }

    static func config(of view: Host.View, corsOrigins: [String]) -> AMHTTPConfig {
        let server = view.server
        return AMHTTPConfig(
            baseURL: server.baseURL, issuer: server.issuer, realm: server.realm, cookieName: server.cookieName,
            clients: server.clients.map {
                AMHTTPConfig.Client(
                    clientId: $0.clientId, redirectUris: $0.redirectUris,
                    postLogoutRedirectUris: $0.postLogoutRedirectUris)
            },
            scopes: server.clients.first?.scopes ?? [], corsOrigins: corsOrigins)
    }

    /// The configuration with the clients the server's registry holds now: an import can add
    /// some at run time (docs/seed.md), so the routes read them per request.
    static func config(_ base: AMHTTPConfig, clientsOf world: World) -> AMHTTPConfig {
        var config = base
        config.clients = world.embedded.clients.all.map {
            AMHTTPConfig.Client(
                clientId: $0.clientId, redirectUris: $0.redirectUris, postLogoutRedirectUris: $0.postLogoutRedirectUris)
        }
        return config
    }

    /// `--http ADDRESS`: `HOST:PORT` or a bare port (on 127.0.0.1); `localhost` is 127.0.0.1.
    /// Only dotted IPv4 addresses are served.
    public static func endpoint(_ text: String) -> Result<Sockets.Endpoint, HTTPServer.StartFailure> {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        let hostText = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        let portText = parts.count == 2 ? String(parts[1]) : text
        guard parts.count <= 2, let port = UInt16(portText) else {
            return .failure(.init(message: "--http needs HOST:PORT or PORT (0 picks a free port), got \(text)"))
        }
        let host = hostText == "localhost" ? "127.0.0.1" : hostText
        guard Sockets.ipv4(host) != nil else {
            return .failure(.init(message: "--http needs a dotted IPv4 address or localhost, got \(hostText)"))
        }
        return .success(Sockets.Endpoint(host: host, port: port))
    }
}
