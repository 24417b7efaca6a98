/// `--redirect-uri URI`, repeatable. With a remote tenant it is the app's one redirect URI, the
/// one the native SDK sends. With the embedded server each one is registered for its OAuth client
/// beside the default: a web app's (the JavaScript SDK's hidden iframe must land on the app's own
/// origin), or the one an RNPingOidc client is configured with. The server still compares redirect
/// URIs exactly, as AM does (docs/http.md says why no loopback exception).
/// `--post-logout-redirect-uri` takes URIs of the same form, checked the same way.
enum RedirectURIFlag {
    /// What is wrong with `text` as a redirect URI, or nil: it is absolute (an RFC 3986 scheme
    /// and something after it), has no fragment (RFC 6749 §3.1.2), no spaces or control
    /// characters, and an `http(s)` one names a host.
    static func problem(_ text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return "no scheme such as http: or com.example.app:" }
        let scheme = text[..<colon]
        let schemeCharacters = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || "+-.".contains(c)) }
        guard let first = scheme.first, first.isASCII, first.isLetter, scheme.allSatisfy(schemeCharacters) else {
            return "no scheme such as http: or com.example.app:"
        }
        let rest = text[text.index(after: colon)...]
        if rest.isEmpty { return "nothing after the scheme" }
        // `localhost:3000/callback` parses as a scheme `localhost`: surely meant as http.
        if let port = rest.split(separator: "/", omittingEmptySubsequences: false).first, !port.isEmpty,
            port.allSatisfy({ $0.isASCII && $0.isNumber })
        {
            return "HOST:PORT without a scheme: write http://\(text)"
        }
        if text.contains("#") { return "a redirect URI has no fragment (#…)" }
        if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
            return "no spaces or control characters"
        }
        if ["http", "https"].contains(scheme.lowercased()) {
            let host = rest.hasPrefix("//") ? rest.dropFirst(2).prefix { !"/?".contains($0) } : ""
            if host.isEmpty || host.hasPrefix(":") { return "an http(s) URI names a host: http://HOST[:PORT]/PATH" }
        }
        return nil
    }

    /// The origins of the http(s) redirect URIs that `corsOrigins` does not allow: a web app
    /// there gets its code through the iframe, then cannot call the server (docs/http.md).
    static func originsWithoutCORS(_ uris: [String], corsOrigins: [String]) -> [String] {
        if corsOrigins.contains("*") { return [] }
        var missing: [String] = []
        for uri in uris {
            guard let origin = origin(of: uri), !corsOrigins.contains(origin), !missing.contains(origin) else {
                continue
            }
            missing.append(origin)
        }
        return missing
    }

    /// `scheme://host[:port]` as a browser writes it in `Origin` (lower case, no default port), or
    /// nil for a URI that is not http(s).
    static func origin(of uri: String) -> String? {
        let lowered = uri.lowercased()
        guard let scheme = ["http", "https"].first(where: { lowered.hasPrefix($0 + "://") }) else { return nil }
        let authority = lowered.dropFirst(scheme.count + 3).prefix { !"/?#".contains($0) }
        let defaultPort = scheme == "http" ? ":80" : ":443"
        let host = authority.hasSuffix(defaultPort) ? authority.dropLast(defaultPort.count) : authority
        return "\(scheme)://\(host)"
    }

    /// The refusal of `text` given to `flag` (`--redirect-uri` or `--post-logout-redirect-uri`,
    /// which take the same URIs).
    static func usage(_ flag: String, _ text: String, _ problem: String) -> String {
        "\(flag) needs an absolute URI such as http://localhost:3000/callback or com.example.app:/callback; got \(text) (\(problem))"
    }
}
