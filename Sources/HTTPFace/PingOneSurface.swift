import AMHTTP
import AuthBridgeCore
import HTTPServer
import Host
import IdentityServer

/// PingOne's REST API on the HTTP face (docs/http.md, "PingOne and DaVinci"): every path under
/// `/{envId}/`, passed to the world's PingOne server as a `PingOneRequest`, so a browser app's
/// `davinci-client` and the native DaVinci client meet one server. Cross-origin calls are
/// answered as AM's routes answer them (`CORS`), accepting the headers the DaVinci client sends
/// (ping-javascript-sdk `packages/davinci-client/src/lib/davinci.api.ts`: `interactionId`,
/// `interactionToken`, `Accept`, `x-requested-with`, `x-requested-platform`).
enum PingOneSurface {
    static let davinciHeaders = ["accept", "interactionid", "interactiontoken"]

    static func surface(view: Host.View, corsOrigins: [String]) -> HTTPSurface {
        let prefix = "/\(view.pingOneEnvironmentId)/"
        let cors = CORS(origins: corsOrigins, cookieName: view.server.cookieName, extraHeaders: davinciHeaders)
        return HTTPSurface(
            name: "pingone", claims: { $0.path.hasPrefix(prefix) },
            respond: { request, world in
                if request.method == "OPTIONS" { return cors.preflight(request) }
                if let remote = world.configuration.remote {
                    return cors.decorate(Self.response(Self.notEmulated(remote: remote.url)), for: request)
                }
                do throws(TransportError) {
                    let reply = try world.pingOneServer.pingOne(Self.request(request))
                    return cors.decorate(Self.response(reply), for: request)
                } catch {
                    // A fault dropped the request or let it time out: the connection's delivery
                    // (HTTPFaults) closes it, so this answer is never sent.
                    return HTTPResponse(status: 504, text: "fault\n")
                }
            })
    }

    /// Beside a real tenant the PingOne server is the idle embedded one, which nothing else talks
    /// to: its flows and tokens would answer for a server the app does not use (as the emulator
    /// methods refuse to, `EmulatorMethods.embeddedOnly`). PingOne's 404, saying why.
    static func notEmulated(remote url: String) -> ServerReply {
        ServerReply(
            status: 404,
            body: PingOneErrors.status(
                404,
                message:
                    "PingOne is emulated only with the embedded server: server.kind is remote (\(url)); "
                    + "send DaVinci requests to the PingOne environment itself"))
    }

    /// A status fault on a path under the environment (docs/faults.md): PingOne's error body,
    /// with the CORS headers a browser's DaVinci client needs to read it.
    static func failure(_ request: HTTPRequest, status: Int, message: String?, config: AMHTTPConfig) -> HTTPResponse {
        logInfo("HTTP \(request.method) \(request.path) \(status) (fault)")
        let cors = CORS(origins: config.corsOrigins, cookieName: config.cookieName, extraHeaders: davinciHeaders)
        return cors.decorate(
            response(ServerReply(status: status, body: PingOneErrors.status(status, message: message))), for: request)
    }

    static func request(_ http: HTTPRequest) -> PingOneRequest {
        var headers: [String: String] = [:]
        for header in http.headers {
            let name = header.name.lowercased()
            headers[name] =
                headers[name].map { "\($0)\(name == "cookie" ? "; " : ", ")\(header.value)" } ?? header.value
        }
        let text = String(decoding: http.body, as: UTF8.self)
        let isJSON = (headers["content-type"] ?? "").lowercased().contains("json")
        let json = isJSON && !http.body.isEmpty ? try? JSONParser.parse(text) : nil
        let form = !isJSON && !http.body.isEmpty ? PercentEncoding.queryParameters(of: "?" + text) : [:]
        return PingOneRequest(
            method: http.method, path: http.path, query: PercentEncoding.queryParameters(of: "?" + http.query),
            headers: headers, json: json, form: form)
    }

    static func response(_ reply: ServerReply) -> HTTPResponse {
        var headers: [HTTPRequest.Header] = [.init("Cache-Control", "no-store")]
        for (name, value) in reply.headers.sorted(by: { $0.key < $1.key }) {
            // Several cookies travel in one `Set-Cookie` entry, a line each.
            for line in value.split(separator: "\n") { headers.append(.init(name, String(line))) }
        }
        guard reply.body != .null else { return HTTPResponse(status: reply.status, headers: headers) }
        headers.append(.init("Content-Type", "application/json;charset=UTF-8"))
        return HTTPResponse(status: reply.status, headers: headers, body: JSONWriter().bytes(reply.body))
    }
}
