import HTTPServer

/// `Accept-API-Version: protocol=1.0,resource=2.1` negotiation as AM's REST layer does it: a
/// resource version the endpoint serves (a major version alone picks its highest minor), or 404
/// "does not match any routes"; no header picks the endpoint's newest. The answer names the
/// version chosen in `Content-API-Version`.
enum APIVersion {
    /// The answer to a version that cannot be served.
    struct Refused: Error {
        let response: HTTPResponse
    }

    static func negotiate(_ header: String?, supported: [String]) -> Result<String, Refused> {
        let newest = supported.last!
        guard let header, !header.trimmingSpaces.isEmpty else { return .success(newest) }
        var resource: String?
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map { String($0.trimmingSpaces) }
            guard pair.count == 2, !pair[1].isEmpty else {
                return .failure(
                    Refused(response: AMResponse.error(400, "Malformed Accept-API-Version header: \(header)")))
            }
            switch pair[0].lowercased() {
            case "protocol":
                guard ["1", "1.0", "2", "2.0", "2.1"].contains(pair[1]) else {
                    return .failure(
                        Refused(response: AMResponse.error(400, "Unsupported protocol version: \(pair[1])")))
                }
            case "resource": resource = pair[1]
            default:
                return .failure(
                    Refused(response: AMResponse.error(400, "Malformed Accept-API-Version header: \(header)")))
            }
        }
        guard let resource else { return .success(newest) }
        if supported.contains(resource) { return .success(resource) }
        if !resource.contains("."), let match = supported.last(where: { $0.hasPrefix(resource + ".") }) {
            return .success(match)
        }
        return .failure(
            Refused(
                response: AMResponse.error(
                    404, "Accept-API-Version: Requested version \"\(resource)\" does not match any routes.")))
    }

    static func header(_ version: String) -> HTTPRequest.Header { .init("Content-API-Version", "resource=\(version)") }
}
