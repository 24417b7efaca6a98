import AuthBridgeCore
import IdentityServer
import NativeSDK

/// The identity server as the SDK, the Ping modules, the phones and the HTTP face reach it, with
/// the fault plan in between: where a real network fails. A status fault is AM's error reply
/// (the server never sees the call); a latency fault lets the call through and owes the face a
/// wait; a dropped connection or a timeout is a `TransportError` with the platform's HTTP
/// stack's text, which each SDK layer maps as it maps any unreachable server.
final class FaultingServer: IdentityServer {
    let inner: any IdentityServer
    let plan: FaultPlan
    let texts: Texts

    /// What the platform's HTTP stack says when a connection drops or a request times out:
    /// URLSession's `NSURLErrorNetworkConnectionLost` and `NSURLErrorTimedOut`, OkHttp's
    /// `IOException` and `SocketTimeoutException`.
    struct Texts {
        let drop: String
        let timeout: String

        static func of(_ platform: Platform) -> Texts {
            switch platform {
            case .ios: return Texts(drop: "The network connection was lost.", timeout: "The request timed out.")
            case .android: return Texts(drop: "unexpected end of stream", timeout: "timeout")
            }
        }
    }

    init(_ inner: any IdentityServer, plan: FaultPlan, platform: Platform) {
        self.inner = inner
        self.plan = plan
        texts = .of(platform)
    }

    private func call(
        _ operation: IdentityOperation, _ body: () throws(TransportError) -> ServerReply
    ) throws(TransportError) -> ServerReply {
        switch plan.hit(operation: operation) {
        case nil: return try body()
        case .latency(let seconds)?:
            logInfo("fault: \(operation.rawValue) answered \(seconds) s late")
            return try body()
        case .status(let status, let message)?:
            logInfo("fault: \(operation.rawValue) answered \(status)")
            return ServerReply(status: status, body: AMErrors.status(status, message: message))
        case .drop?:
            logInfo("fault: \(operation.rawValue) dropped")
            throw TransportError(texts.drop)
        case .timeout?:
            logInfo("fault: \(operation.rawValue) timed out")
            throw TransportError(texts.timeout)
        }
    }

    func jwks() throws(TransportError) -> ServerReply {
        try call(.jwks) { () throws(TransportError) in try inner.jwks() }
    }

    func authenticate(_ request: AuthenticateRequest) throws(TransportError) -> ServerReply {
        try call(.authenticate) { () throws(TransportError) in try inner.authenticate(request) }
    }

    func authorize(_ request: AuthorizeRequest) throws(TransportError) -> ServerReply {
        try call(.authorize) { () throws(TransportError) in try inner.authorize(request) }
    }

    func token(form: [String: String]) throws(TransportError) -> ServerReply {
        try call(.token) { () throws(TransportError) in try inner.token(form: form) }
    }

    func userInfo(accessToken: String) throws(TransportError) -> ServerReply {
        try call(.userInfo) { () throws(TransportError) in try inner.userInfo(accessToken: accessToken) }
    }

    func revoke(form: [String: String]) throws(TransportError) -> ServerReply {
        try call(.revoke) { () throws(TransportError) in try inner.revoke(form: form) }
    }

    func endSession(
        idTokenHint: String, clientId: String?, at endpoint: EndSessionEndpoint
    ) throws(TransportError) -> ServerReply {
        try call(.endSession) { () throws(TransportError) in
            try inner.endSession(idTokenHint: idTokenHint, clientId: clientId, at: endpoint)
        }
    }

    func logoutSession(ssoToken: String) throws(TransportError) -> ServerReply {
        try call(.logoutSession) { () throws(TransportError) in try inner.logoutSession(ssoToken: ssoToken) }
    }

    func validateSession(ssoToken: String) throws(TransportError) -> ServerReply {
        try call(.validateSession) { () throws(TransportError) in try inner.validateSession(ssoToken: ssoToken) }
    }

    func sessionInfo(ssoToken: String, refresh: Bool) throws(TransportError) -> ServerReply {
        try call(.sessionInfo) { () throws(TransportError) in
            try inner.sessionInfo(ssoToken: ssoToken, refresh: refresh)
        }
    }

    func introspect(form: [String: String]) throws(TransportError) -> ServerReply {
        try call(.introspect) { () throws(TransportError) in try inner.introspect(form: form) }
    }

    func devices(_ request: DevicesRequest) throws(TransportError) -> ServerReply {
        try call(.devices) { () throws(TransportError) in try inner.devices(request) }
    }

    func pushMessage(_ action: PushAction, body: JSONValue) throws(TransportError) -> ServerReply {
        try call(.pushMessage) { () throws(TransportError) in try inner.pushMessage(action, body: body) }
    }
}
