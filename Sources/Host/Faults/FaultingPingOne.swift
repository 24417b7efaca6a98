import AuthBridgeCore
import IdentityServer
import NativeSDK

/// PingOne as RNPingDavinci's DaVinci client and the HTTP face's PingOne routes reach it, with the
/// fault plan in between, as `FaultingServer` puts it before the AM-shaped server: a status fault
/// is PingOne's error reply (`PingOneErrors`; the server never sees the request), a latency fault
/// lets it through and owes the face a wait, a dropped connection or a timeout is the platform's
/// transport error, which the DaVinci client makes a FailureNode as it does any unreachable server.
final class FaultingPingOne: PingOneServer {
    let inner: any PingOneServer
    let plan: FaultPlan
    let texts: FaultingServer.Texts

    init(_ inner: any PingOneServer, plan: FaultPlan, platform: Platform) {
        self.inner = inner
        self.plan = plan
        texts = .of(platform)
    }

    var environmentId: String { inner.environmentId }

    func pingOne(_ request: PingOneRequest) throws(TransportError) -> ServerReply {
        guard let operation = PingOneOperation(request, environmentId: environmentId) else {
            return try inner.pingOne(request)
        }
        return try texts.answer(
            plan.hit(pingOne: operation), named: operation.rawValue, errorBody: PingOneErrors.status
        ) { () throws(TransportError) in try inner.pingOne(request) }
    }
}
