import AuthBridgeCore

/// One HTTP/1.x request as the decoder read it. Header names keep their case; lookups ignore it.
public struct HTTPRequest: Equatable, Sendable {
    public struct Header: Equatable, Sendable {
        public var name: String
        public var value: String

        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    public var method: String
    /// The request target as sent: origin-form (`/path?query`) or `*`.
    public var target: String
    /// The minor version of HTTP/1.x: 0 or 1.
    public var minorVersion: Int
    public var headers: [Header]
    public var body: [UInt8]
    /// The client's IPv4 address as the connection's socket reports it (nil when unknown, as
    /// for a request built in a test): what the admin API's loopback check reads.
    public var peer: String?

    public init(method: String, target: String, minorVersion: Int = 1, headers: [Header] = [], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.minorVersion = minorVersion
        self.headers = headers
        self.body = body
    }

    /// The first header of that name (ASCII case-insensitive).
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// Every value of that header, in order (`Cookie` may come more than once).
    public func headers(named name: String) -> [String] {
        let wanted = name.lowercased()
        return headers.filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// Whether the client is on this machine (a 127.x.x.x peer) and called it by a loopback name
    /// (`Host` 127.x.x.x, `localhost`, or none): what the admin API and the inspector, served only
    /// to loopback clients, check. The name matters because a page whose own host name was
    /// rebound to 127.0.0.1 (DNS rebinding) reaches the listener from a loopback peer, same-origin
    /// to itself, with its own name in `Host`. Unknown peers are refused.
    public var isFromLoopback: Bool {
        guard let peer, Sockets.Endpoint(host: peer, port: 0).isLoopback else { return false }
        guard let host = header("Host") else { return true }
        let name = host.hasPrefix("[") ? String(host.prefix { $0 != "]" }) + "]" : String(host.prefix { $0 != ":" })
        return name.lowercased() == "localhost" || name == "[::1]"
            || Sockets.Endpoint(host: name, port: 0).isLoopback
    }

    /// The target before `?`.
    public var path: String {
        // Bytes, not characters: every surface asks for the path of every request.
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target }
        return String(target[..<mark])
    }

    /// The target after `?`, or "" when there is none.
    public var query: String {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return "" }
        return String(target[target.utf8.index(after: mark)...])
    }

    /// Whether the client lets the connection stay open after this exchange (RFC 9112 §9.3):
    /// HTTP/1.1 unless it says `close`, HTTP/1.0 only when it says `keep-alive`.
    public var wantsKeepAlive: Bool {
        let tokens = headers(named: "Connection").flatMap { $0.lowercased().split(separator: ",") }
            .map { $0.trimmingCharacters(in: " \t") }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }
}

extension StringProtocol {
    /// Without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        return String(drop(while: characters.contains).reversed().drop(while: characters.contains).reversed())
    }
}
