import HTTPServer

extension HTTPFace {
    /// `--public-url URL`: the server's base URL as its clients reach it, written as the SDK's
    /// `serverConfig.baseUrl` (`http://127.0.0.1:8080/am`). It becomes the issuer of tokens, the
    /// endpoints discovery lists and the links the journeys send, instead of the URL the listener
    /// was bound to, so output does not depend on the port `--http 127.0.0.1:0` picks, or names
    /// the proxy in front. Answers the URL without a trailing slash.
    public static func publicURL(_ text: String) -> Result<String, HTTPServer.StartFailure> {
        let usage = "--public-url needs http(s)://HOST[:PORT]/am, the server's base URL as clients reach it"
        let lowered = text.lowercased()
        guard let scheme = ["http://", "https://"].first(where: { lowered.hasPrefix($0) }) else {
            return .failure(.init(message: "\(usage); got \(text) (no http:// or https://)"))
        }
        let rest = text.dropFirst(scheme.count)
        guard !rest.contains("?"), !rest.contains("#") else {
            return .failure(.init(message: "\(usage); got \(text) (no query or fragment)"))
        }
        let authority = rest.prefix { $0 != "/" }
        let path = rest.dropFirst(authority.count)
        if let problem = authorityProblem(authority) {
            return .failure(.init(message: "\(usage); got \(text) (\(problem))"))
        }
        // AM's paths are served under /am and at the root (AMRoute): a base elsewhere would name
        // endpoints this server does not answer.
        guard ["", "/", "/am", "/am/"].contains(path) else {
            return .failure(
                .init(
                    message: "\(usage); got \(text) (the path is /am or nothing: that is where AM's paths are served)"))
        }
        let base = scheme + authority + path
        return .success(base.hasSuffix("/") ? String(base.dropLast()) : base)
    }

    /// What is wrong with `HOST[:PORT]`, or nil: a DNS name or IPv4 address, or an IPv6 one in
    /// brackets; a port from 1 to 65535.
    private static func authorityProblem(_ authority: Substring) -> String? {
        if authority.isEmpty { return "no host" }
        if authority.contains("@") { return "no user or password in it" }
        var host = authority
        var port: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return "an IPv6 address needs its closing ]" }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":") else { return "only :PORT may follow ]" }
                port = after.dropFirst()
            }
            let inside = host.dropFirst().dropLast()
            if inside.isEmpty || !inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) {
                return "a bad IPv6 address"
            }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            let allowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || c == "." || c == "-") }
            if host.isEmpty || !host.allSatisfy(allowed) { return "a bad host name \(host)" }
        }
        if let port {
            guard port.count <= 5, port.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(port),
                (1...65535).contains(number)
            else {
                return "the port is a number from 1 to 65535, got \(port)"
            }
        }
        return nil
    }
}
