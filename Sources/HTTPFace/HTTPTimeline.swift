import AuthBridgeCore
import HTTPServer
import Host

/// An HTTP exchange as the inspector's timeline keeps it: the request and the response as they
/// are (their arrays and strings shared, not copied) and, only when a page reads the entry, shown
/// redacted as the trace redacts a stdio call: the query and a form or JSON body by `Redaction`
/// (passwords, tokens, codes…), every header but a few that carry no secret hidden (a cookie, an
/// `Authorization`, AM's SSO token header named after its cookie), a body that is neither JSON
/// nor a form (a page, a script) by its size and type only, a large one cut by the timeline.
enum HTTPTimeline {
    static func record(
        _ request: HTTPRequest, _ outcome: Result<HTTPResponse, Host.NotDurable>, concern: Timeline.Concern?,
        began: (Double, ContinuousClock.Instant), into timeline: Timeline
    ) {
        let elapsed = ContinuousClock.now - began.1
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let (method, target, headers) = (request.method, request.target, request.headers)
        let response = try? outcome.get()
        let status = response?.status ?? 503
        let responseHeaders = response?.headers ?? []
        // A body too large to be shown is not kept either: the ring holds 500 exchanges.
        let body = Kept(request.body)
        let responseBody = Kept(response?.body ?? [])
        timeline.record(.http, at: began.0, seconds: seconds, failed: status >= 400, concern: concern) {
            let (path, query) = split(target)
            var shownRequest: JSONObject = ["method": .string(method), "path": .string(path)]
            if let query { shownRequest["query"] = Redaction.value(.object(form(query))) }
            shownRequest["headers"] = shown(headers)
            if body.count > 0 { shownRequest["body"] = shown(body, type: value(of: "content-type", in: headers)) }
            var shownResponse: JSONObject = ["status": .int(Int64(status))]
            if let location = value(of: "location", in: responseHeaders) {
                let (base, query) = split(location)
                shownResponse["location"] = .string(base)
                if let query { shownResponse["locationQuery"] = Redaction.value(.object(form(query))) }
            }
            if responseBody.count > 0 {
                shownResponse["body"] = shown(responseBody, type: value(of: "content-type", in: responseHeaders))
            }
            return Timeline.Shown(
                name: "\(method) \(path)", request: .object(shownRequest), response: .object(shownResponse))
        }
    }

    /// Headers that carry no secret, shown as they came; every other value is hidden.
    static let visibleHeaders: Set<String> = [
        "host", "accept", "accept-api-version", "content-type", "content-length", "user-agent", "origin",
        "x-requested-with", "connection", "cache-control", "x-openam-username", "accept-encoding",
        "accept-language",
    ]

    /// What a body is past which it is neither kept nor read (the timeline cuts what it shows
    /// smaller still).
    static let readableBytes = 64 * 1024

    /// A body as the entry keeps it: itself (shared, not copied) when it may be shown, else its size.
    struct Kept: Sendable {
        let bytes: [UInt8]
        let count: Int

        init(_ body: [UInt8]) {
            count = body.count
            bytes = body.count <= HTTPTimeline.readableBytes ? body : []
        }
    }

    private static func shown(_ headers: [HTTPRequest.Header]) -> JSONValue {
        .object(
            JSONObject(
                headers.map { header in
                    let name = header.name.lowercased()
                    return (name, visibleHeaders.contains(name) ? .string(header.value) : .string(Redaction.marker))
                }))
    }

    private static func shown(_ kept: Kept, type: String?) -> JSONValue {
        let type = type?.lowercased() ?? ""
        let described = JSONValue.string("<\(kept.count) bytes\(type.isEmpty ? "" : " of \(type)"), not shown>")
        guard kept.count <= readableBytes else { return described }
        let body = kept.bytes
        if type.hasPrefix("application/json") || type.hasSuffix("+json") {
            guard let parsed = try? JSONParser.parse(String(decoding: body, as: UTF8.self)) else {
                return .string(Redaction.unreadable(String(decoding: body, as: UTF8.self)))
            }
            return Redaction.value(parsed)
        }
        if type.hasPrefix("application/x-www-form-urlencoded") {
            return Redaction.value(.object(form(Substring(String(decoding: body, as: UTF8.self)))))
        }
        return described
    }

    /// `a=1&b=2` decoded, in order (a name given twice keeps both, the later one last).
    private static func form(_ text: Substring) -> JSONObject {
        JSONObject(
            text.split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (
                    PercentEncoding.unescape(parts[0]),
                    .string(parts.count > 1 ? PercentEncoding.unescape(parts[1]) : "")
                )
            })
    }

    /// A target or URL before `?` (without a fragment, which may carry tokens) and its query.
    private static func split(_ target: String) -> (String, Substring?) {
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        guard let mark = withoutFragment.firstIndex(of: "?") else { return (String(withoutFragment), nil) }
        return (String(withoutFragment[..<mark]), withoutFragment[withoutFragment.index(after: mark)...])
    }

    private static func value(of name: String, in headers: [HTTPRequest.Header]) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }
}
