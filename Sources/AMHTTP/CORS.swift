import HTTPServer

/// Cross-origin calls from browser apps (the ForgeRock JavaScript SDK sends cookies with
/// `credentials: 'include'`), answered as AM's CORS service answers with the configuration the
/// SDKs' documentation gives it ("Configure CORS", ForgeRock SDK docs: methods GET and POST,
/// credentials allowed, max age 600, the accepted headers below, `WWW-Authenticate` exposed).
/// Only origins configured with `--cors-origin` are allowed, and an allowed origin is echoed with
/// `Access-Control-Allow-Credentials: true` (a credentialed call may not be answered with `*`).
/// Others get no CORS headers, so the browser blocks them. Public for the other HTTP surfaces
/// (PingOne's adds the DaVinci client's headers), so every surface answers browsers alike.
public struct CORS: Sendable {
    /// The configured origins, normalised as a browser serialises an origin.
    let origins: Set<String>
    let anyOrigin: Bool
    /// Header names a preflight may ask for, lower case: the SDK docs' list, with the cookie.
    let acceptedHeaders: Set<String>
    static let exposedHeaders = "WWW-Authenticate"

    /// `extraHeaders`: further header names a surface's clients send (lower case).
    public init(origins: [String], cookieName: String, extraHeaders: [String] = []) {
        anyOrigin = origins.contains("*")
        self.origins = Set(origins.compactMap(Self.normalized))
        acceptedHeaders = Set(extraHeaders).union([
            "accept-api-version", "authorization", "content-type", "if-match", "x-requested-platform",
            "x-requested-with",
            cookieName.lowercased(),
        ])
    }

    /// `scheme://host[:port]` as a browser sends it in `Origin`: scheme and host in lower case,
    /// no port where it is the scheme's default. Nil for what is not an origin.
    static func normalized(_ origin: String) -> String? {
        let lowered = origin.lowercased()
        let scheme = lowered.hasPrefix("https://") ? "https" : lowered.hasPrefix("http://") ? "http" : ""
        guard !scheme.isEmpty else { return nil }
        var authority = String(lowered.dropFirst(scheme.count + 3))
        guard !authority.isEmpty, !authority.contains("/") else { return nil }
        let defaultPort = scheme == "http" ? ":80" : ":443"
        if authority.hasSuffix(defaultPort) { authority.removeLast(defaultPort.count) }
        return "\(scheme)://\(authority)"
    }

    func allows(_ origin: String) -> Bool {
        anyOrigin || Self.normalized(origin).map(origins.contains) == true
    }

    /// `OPTIONS` from a browser asking before its real request.
    public func preflight(_ request: HTTPRequest) -> HTTPResponse {
        guard let origin = request.header("Origin"), request.header("Access-Control-Request-Method") != nil else {
            return HTTPResponse(status: 204, headers: [.init("Allow", "GET, HEAD, POST, OPTIONS")])
        }
        guard allows(origin) else {
            return HTTPResponse(
                status: 403, text: "CORS: origin \(origin) is not allowed (start with --cors-origin \(origin))\n")
        }
        let asked = (request.header("Access-Control-Request-Headers") ?? "").split(separator: ",")
            .map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
        let refused = asked.filter { !acceptedHeaders.contains($0) }
        guard refused.isEmpty else {
            return HTTPResponse(
                status: 403,
                text:
                    "CORS: header \(refused.joined(separator: ", ")) is not accepted (AM's CORS configuration for the SDKs "
                    + "accepts \(acceptedHeaders.sorted().joined(separator: ", ")))\n")
        }
        var headers: [HTTPRequest.Header] = [
            .init("Access-Control-Allow-Origin", origin), .init("Access-Control-Allow-Credentials", "true"),
            .init("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS"), .init("Access-Control-Max-Age", "600"),
            .init("Vary", "Origin"),
        ]
        if !asked.isEmpty { headers.append(.init("Access-Control-Allow-Headers", asked.joined(separator: ","))) }
        return HTTPResponse(status: 204, headers: headers)
    }

    public func decorate(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard let origin = request.header("Origin"), allows(origin) else { return response }
        var decorated = response
        decorated.headers += [
            .init("Access-Control-Allow-Origin", origin), .init("Access-Control-Allow-Credentials", "true"),
            .init("Access-Control-Expose-Headers", Self.exposedHeaders), .init("Vary", "Origin"),
        ]
        return decorated
    }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }
}
