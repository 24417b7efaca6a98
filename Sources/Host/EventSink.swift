import AuthBridgeCore

/// Where the Host sends the native side's events (TOKEN_EVENT, LOGOUT_EVENT, …): the stdio host.
/// Events are handed over as they happen, so they precede the response of the request that
/// caused them; `flush` ends each transaction, after its changes are durable.
public protocol EventSink: AnyObject {
    func deliver(event: String, params: JSONValue)
    func flush()
}
