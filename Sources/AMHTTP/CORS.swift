import HTTPServer

/// Cross-origin calls from browser apps (the ForgeRock JavaScript SDK sends cookies with
/// `credentials: 'include'`): only origins configured with `--cors-origin` are allowed, and an
/// allowed origin is echoed with `Access-Control-Allow-Credentials: true` (a credentialed call
/// may not be answered with `*`). Others get no CORS headers, so the browser blocks them.
struct CORS {
    let origins: [String]

    func allows(_ origin: String) -> Bool { origins.contains(origin) || origins.contains("*") }

    /// `OPTIONS` from a browser asking before its real request.
    func preflight(_ request: HTTPRequest) -> HTTPResponse {
        guard let origin = request.header("Origin"), request.header("Access-Control-Request-Method") != nil else {
            return HTTPResponse(status: 204, headers: [.init("Allow", "GET, HEAD, POST, OPTIONS")])
        }
        guard allows(origin) else {
            return HTTPResponse(status: 403, text: "CORS: origin \(origin) is not allowed (start with --cors-origin \(origin))\n")
        }
        var headers: [HTTPRequest.Header] = [
            .init("Access-Control-Allow-Origin", origin), .init("Access-Control-Allow-Credentials", "true"),
            .init("Access-Control-Allow-Methods", "GET, HEAD, POST, OPTIONS"), .init("Access-Control-Max-Age", "600"),
            .init("Vary", "Origin"),
        ]
        if let asked = request.header("Access-Control-Request-Headers"), !asked.isEmpty {
            headers.append(.init("Access-Control-Allow-Headers", asked))
        }
        return HTTPResponse(status: 204, headers: headers)
    }

    func decorate(_ response: HTTPResponse, for request: HTTPRequest) -> HTTPResponse {
        guard let origin = request.header("Origin"), allows(origin) else { return response }
        var decorated = response
        decorated.headers += [
            .init("Access-Control-Allow-Origin", origin), .init("Access-Control-Allow-Credentials", "true"),
            .init("Vary", "Origin"),
        ]
        return decorated
    }
}
