import AuthBridgeCore
import HTTPServer

/// What AM reads from a request besides its path: query and form parameters, cookies, the SSO
/// token (a cookie, or a header named like the cookie as the iOS SDK sends it), a bearer token,
/// a JSON body.
extension HTTPRequest {
    var queryParameters: [String: String] { PercentEncoding.queryParameters(of: "?" + query) }

    /// The query, and for a POST the form body too (the body wins on a clash).
    var parameters: [String: String] {
        guard method == "POST" else { return queryParameters }
        return queryParameters.merging(formParameters) { _, form in form }
    }

    /// An `application/x-www-form-urlencoded` body. Read leniently (the iOS SDK does not
    /// percent-encode values), and whatever the content type says.
    var formParameters: [String: String] {
        body.isEmpty ? [:] : PercentEncoding.queryParameters(of: "?" + String(decoding: body, as: UTF8.self))
    }

    func cookie(_ name: String) -> String? {
        for header in headers(named: "Cookie") {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                if parts.count == 2, parts[0].trimmingSpaces == name { return String(parts[1].trimmingSpaces) }
            }
        }
        return nil
    }

    func ssoToken(cookieName: String) -> String? {
        if let header = header(cookieName), !header.isEmpty { return header }
        if let cookie = cookie(cookieName), !cookie.isEmpty { return cookie }
        return nil
    }

    var bearerToken: String? {
        guard let value = header("Authorization"), value.count > 7, value.prefix(7).lowercased() == "bearer " else {
            return nil
        }
        let token = String(value.dropFirst(7).trimmingSpaces)
        return token.isEmpty ? nil : token
    }

    enum JSONBody {
        case none
        case object(JSONValue)
        case invalid
    }

    /// The body as a JSON object; an empty body (or only whitespace) is none.
    var jsonBody: JSONBody {
        guard body.contains(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else { return .none }
        guard let value = try? JSONParser.parse(body), case .object = value else { return .invalid }
        return .object(value)
    }
}

extension StringProtocol {
    var trimmingSpaces: Substring {
        let text = self[...]
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map(text.index(after:)) ?? start
        return Substring(text[start..<Swift.max(start, end)])
    }
}
