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

        /// A call named `name` as the fault that hit it (nil: none) makes it: a status is the
        /// server's error reply (`errorBody`: AM's or PingOne's), without the server seeing the call;
        /// latency lets it through (the face owes the wait); a drop or a timeout is the transport error.
        func answer(
            _ hit: FaultSpec.Kind?, named name: String, errorBody: (Int, String?) -> JSONValue,
            _ call: () throws(TransportError) -> ServerReply
        ) throws(TransportError) -> ServerReply {
            switch hit {
            case nil: return try call()
            case .latency(let seconds)?:
                logInfo("fault: \(name) answered \(seconds) s late")
                return try call()
            case .status(let status, let message)?:
                logInfo("fault: \(name) answered \(status)")
                return ServerReply(status: status, body: errorBody(status, message))
            case .drop?:
                logInfo("fault: \(name) dropped")
                throw TransportError(drop)
            case .timeout?:
                logInfo("fault: \(name) timed out")
                throw TransportError(timeout)
            }
        }

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
        try texts.answer(plan.hit(operation: operation), named: operation.rawValue, errorBody: AMErrors.status, body)
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
