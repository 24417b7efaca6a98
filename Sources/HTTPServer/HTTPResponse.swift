/// A response to encode. The encoder adds `Content-Length` and, when the connection ends after
/// it, `Connection: close`; everything else is the caller's.
public struct HTTPResponse: Equatable, Sendable {
    public var status: Int
    public var headers: [HTTPRequest.Header]
    public var body: [UInt8]
    /// When, and whether, the connection sends it (`Delivery`): at once, unless a fault says otherwise.
    public var delivery: Delivery = .now

    public init(status: Int, headers: [HTTPRequest.Header] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Int, headers: [HTTPRequest.Header] = [], text: String) {
        self.init(
            status: status, headers: headers + [.init("Content-Type", "text/plain; charset=utf-8")],
            body: Array(text.utf8))
    }

    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return headers.first { $0.name.lowercased() == wanted }?.value
    }

    /// The status line's text (RFC 9110 §15); an unlisted code gets an empty phrase, which is legal.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 302: return "Found"
        case 303: return "See Other"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 406: return "Not Acceptable"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return ""
        }
    }

    /// Appends the status line, headers and body. `headOnly` (a HEAD request) keeps the length
    /// of the body it leaves out; 1xx, 204 and 304 never carry one.
    public func encode(into out: inout [UInt8], keepAlive: Bool, headOnly: Bool = false) {
        out.append(contentsOf: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n".utf8)
        for header in headers where !Self.managed.contains(header.name.lowercased()) {
            out.append(contentsOf: "\(header.name): \(header.value)\r\n".utf8)
        }
        let bodiless = status < 200 || status == 204 || status == 304
        if !bodiless { out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8) }
        if !keepAlive { out.append(contentsOf: "Connection: close\r\n".utf8) }
        out.append(contentsOf: "\r\n".utf8)
        if !headOnly, !bodiless { out.append(contentsOf: body) }
    }

    /// The head of a streamed response (`Delivery.stream`): no length, the connection closes after it.
    public func encodeStreamHead(into out: inout [UInt8]) {
        out.append(contentsOf: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n".utf8)
        for header in headers where !Self.managed.contains(header.name.lowercased()) {
            out.append(contentsOf: "\(header.name): \(header.value)\r\n".utf8)
        }
        out.append(contentsOf: "Connection: close\r\n\r\n".utf8)
    }

    /// Framing headers belong to the encoder: a handler's own would contradict it.
    private static let managed: Set<String> = ["content-length", "connection", "transfer-encoding"]

    /// `100 Continue`, for a client that waits for it before sending its body.
    public static let continueBytes = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
}
