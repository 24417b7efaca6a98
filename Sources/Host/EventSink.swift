import AuthBridgeCore

/// Where the Host sends the native side's events (TOKEN_EVENT, LOGOUT_EVENT, …): the stdio host.
/// A unit's events are handed over once its changes are durable, so they precede the response of
/// the request that caused them; `flush` writes them out.
public protocol EventSink: AnyObject {
    func deliver(event: String, params: JSONValue)
    func flush()
    /// Whether the stdio host is owed answers to input already read: a shutdown waits for them.
    var isAnswering: Bool { get }
}

extension EventSink {
    public var isAnswering: Bool { false }
}
