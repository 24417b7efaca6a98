import AuthBridgeCore
import NativeModules

/// Where the Host sends the native side's events (TOKEN_EVENT, LOGOUT_EVENT, …): the stdio host.
/// A unit's events are handed over once its changes are durable, so they precede the response of
/// the request that caused them; `flush` hands them to the writer, which writes them out on its
/// own thread.
public protocol EventSink: AnyObject {
    func deliver(event: String, params: JSONValue)
    /// The answer of a parked native call (`PendingCalls`), to the address it was called with.
    func deliver(reply address: JSONValue, outcome: Result<JSONValue, BridgeError>)
    func flush()
    /// Whether the stdio host is owed answers to input already read: a shutdown waits for them.
    var isAnswering: Bool { get }
    /// Whether events were delivered since it was last asked, and if so how to wait until they
    /// are written to the stdio host: the Host calls it with the world held, right after `flush`,
    /// and waits after letting go, so a host that does not read never holds the world and the
    /// face answers only once its unit's events are out.
    func takeWrittenWait() -> (@Sendable () -> Void)?
}

extension EventSink {
    public var isAnswering: Bool { false }
    public func takeWrittenWait() -> (@Sendable () -> Void)? { nil }
}
