import AuthBridgeCore

/// PingOne's REST surface as a DaVinci client calls it: `/{envId}/as/authorize` with
/// `response_mode=pi.flow`, the links a flow's answer hands out (`_links.next.href`, the
/// `customHTMLTemplate` capability), and the OIDC endpoints under `/{envId}/as/`. A request, not one
/// call per operation, because a DaVinci client follows the URLs the server gives it
/// (ping-ios-sdk `Davinci/Davinci/module/Transform.swift`,
/// ping-javascript-sdk `packages/davinci-client`); the HTTP face and the native SDK's DaVinci
/// client both pass their requests through here, so the two see one server. Like
/// `IdentityServer`, a PingOne error is a reply; only transport failures throw. A reply's
/// `Set-Cookie` may carry several cookies, one per line (`interactionId`, `interactionToken`,
/// PingOne's session cookie `ST`): the HTTP face sends a header for each; a native client keeps
/// them and sends them back in `cookie`, as the native SDKs' cookie stores do.
public protocol PingOneServer: AnyObject {
    /// The environment id every path starts with.
    var environmentId: String { get }
    func pingOne(_ request: PingOneRequest) throws(TransportError) -> ServerReply
}

/// One request to PingOne as a client sends it.
public struct PingOneRequest: Equatable, Sendable {
    public var method: String
    /// From the environment on, without the query: `/{envId}/as/authorize`.
    public var path: String
    public var query: [String: String]
    /// Names lowercased: `interactionid`, `interactiontoken`, `cookie`, `origin`.
    public var headers: [String: String]
    /// A JSON body (the flow's continue requests); nil when there is none or it is a form.
    public var json: JSONValue?
    /// A form-encoded body (`/as/token`, `/as/revoke`).
    public var form: [String: String]

    public init(
        method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:],
        json: JSONValue? = nil, form: [String: String] = [:]
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.json = json
        self.form = form
    }
}

/// PingOne's sign-on page, where `/as/authorize` sends a browser without a session: a path under
/// the environment, served by the HTTP face (`PingOneSignOnPage`), named by the server's redirect.
public enum PingOneSignOn {
    public static let path = "signon/"
}
