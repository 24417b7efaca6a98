import AdminHTTP
import AuthBridgeCore
import HTTPServer
import Host

/// The inspector (docs/inspector.md): a page under `/inspector/` that shows the emulated world
/// live and acts in it through the admin API. It is served only where the admin API is (an HTTP
/// face bound to loopback) and only to loopback clients. The page, its script and its style are
/// constants of this target: nothing to build, nothing fetched from elsewhere.
public enum Inspector {
    public static let prefix = "/inspector"
    private static let folder = prefix + "/"

    /// Whether the request is the inspector's (from its path alone).
    public static func claims(_ request: HTTPRequest) -> Bool {
        let path = request.path
        return path == prefix || path.hasPrefix(folder)
    }

    /// The page's URL for an HTTP face at `origin`; nil when the face does not serve it (not on
    /// loopback, as the admin API).
    public static func url(atOrigin origin: String?) -> String? {
        guard let origin, AdminAPI.served(atOrigin: origin) else { return nil }
        return origin + prefix + "/"
    }

    public static func respond(_ request: HTTPRequest, world: World, host: Host) -> HTTPResponse {
        guard request.isFromLoopback else {
            return HTTPResponse(status: 403, text: "the inspector answers loopback clients only\n")
        }
        let files: [String: (type: String, body: String)] = [
            "/": ("text/html; charset=utf-8", InspectorPage.html),
            "/app.js": ("text/javascript; charset=utf-8", InspectorPage.script),
            "/panels.js": ("text/javascript; charset=utf-8", InspectorPanels.script),
            "/timeline.js": ("text/javascript; charset=utf-8", InspectorTimelineScript.script),
            "/app.css": ("text/css; charset=utf-8", InspectorPage.style),
        ]
        let path = String(request.path.dropFirst(prefix.count))
        guard request.method == "GET" || request.method == "HEAD" else {
            return HTTPResponse(
                status: 405, headers: [.init("Allow", "GET, HEAD")],
                text: "the inspector is read with GET; it acts through /emulator/v1\n")
        }
        if path.isEmpty {
            return HTTPResponse(status: 308, headers: [.init("Location", prefix + "/")])
        }
        if let file = files[path] {
            return HTTPResponse(
                status: 200, headers: [.init("Content-Type", file.type)] + headers, body: Array(file.body.utf8))
        }
        switch path {
        case "/state":
            return HTTPResponse(
                status: 200, headers: [.init("Content-Type", "application/json")] + headers,
                body: JSONWriter().bytes(InspectorSnapshot.json(world)))
        case "/timeline":
            let entries = world.timeline?.entries.map(\.json) ?? []
            return HTTPResponse(
                status: 200, headers: [.init("Content-Type", "application/json")] + headers,
                body: JSONWriter().bytes(["entries": .array(entries)]))
        case "/events":
            return InspectorFeed.open(world, host: host, headers: headers)
        default:
            return HTTPResponse(status: 404, text: "no inspector resource \(request.path)\n")
        }
    }

    /// Nothing from elsewhere, no inline script, never framed, never cached.
    static let headers: [HTTPRequest.Header] = [
        .init(
            "Content-Security-Policy",
            "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; "
                + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
        .init("Cache-Control", "no-store"), .init("X-Content-Type-Options", "nosniff"),
    ]
}
