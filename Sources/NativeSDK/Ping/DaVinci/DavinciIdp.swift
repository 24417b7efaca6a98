import AuthBridgeCore
import IdentityServer

/// A request the flow sends instead of a form's continue request: an IdP collector's resume
/// request (ping-ios `ExternalIdP/ExternalIdP/IdpCollector.swift` `resumeRequest`, ping-android
/// `external-idp/…/davinci/IdpCollector.kt`), which its `RequestInterceptor` puts in place of the
/// form's on the next `next()`.
public struct DavinciRequest: Equatable, Sendable {
    public var method: String
    public var url: String
    public var headers: [String: String]
    public var json: JSONValue?

    public init(method: String, url: String, headers: [String: String], json: JSONValue?) {
        self.method = method
        self.url = url
        self.headers = headers
        self.json = json
    }
}

/// What a native IdP handler fetches from the collector's `links.authenticate.href` before the
/// provider's SDK signs in (ping-ios `Handlers/IdpRequestHandler.swift` `IdpClient(response:)`,
/// ping-android `davinci/IdpRequestHandler.kt` `fetch`).
public struct DavinciIdpClient: Equatable, Sendable {
    public var clientId: String
    public var redirectUri: String?
    public var scopes: [String]
    public var nonce: String
    /// `_links.next.href`, where the provider's credential is posted ("" when absent).
    public var continueUrl: String
}

extension PingDavinciClient {
    /// The handler's `fetch`: a GET of `url` with `Accept: application/json` through the flow's
    /// HTTP client; an answer that is not a 2xx JSON object fails with its body as the message.
    public func fetchIdpClient(_ url: String) throws(TransportError) -> DavinciIdpClient {
        let reply = try request("GET", url, headers: ["accept": "application/json"])
        guard (200..<300).contains(reply.status), case .object = reply.body else {
            throw TransportError(JSONWriter.compact(reply.body))
        }
        let idp = reply.body["idp"]
        return DavinciIdpClient(
            clientId: idp?["clientId"]?.stringValue ?? "", redirectUri: idp?["redirectUri"]?.stringValue,
            scopes: idp?["scopes"]?.arrayValue?.compactMap(\.stringValue) ?? [],
            nonce: idp?["nonce"]?.stringValue ?? "",
            continueUrl: reply.body["_links"]?["next"]?["href"]?.stringValue ?? "")
    }

    /// The link opened in an ephemeral browser session (ping-ios `BrowserHandler.swift`
    /// `.ephemeralAuthSession`, ping-android `BrowserLauncher`): a browser's request, without the
    /// SDK's headers or the flow's cookies, and the session ends at the first redirect, whose
    /// `Location` is what comes back to the app; nil when the browser never came back (any
    /// answer but a redirect).
    public func openInBrowser(_ url: String) -> String? {
        guard let server = pingOneServer, let (path, query) = PingOneLink.split(url) else { return nil }
        let request = PingOneRequest(
            method: "GET", path: path, query: query, headers: ["accept": "text/html"], json: nil, form: [:])
        guard let reply = try? server.pingOne(request), (300..<400).contains(reply.status) else { return nil }
        return reply.headers.first { $0.key.lowercased() == "location" }?.value
    }
}
