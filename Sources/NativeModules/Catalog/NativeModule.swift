import AuthBridgeCore

/// One native method as the JS side calls it: positional arguments in, the resolved value out.
public struct NativeMethod {
    public let name: String
    /// Seconds the native method takes before it settles (the iOS sample's `start()` resolves
    /// after an `asyncAfter`). The Host waits that long with the world released.
    public let delay: Double
    public let call: ([JSONValue]) throws(BridgeError) -> JSONValue
    /// For a method that may wait for JS (a PIN prompt): called instead of `call` with the
    /// ticket of this call; nil parks it (`PendingCalls`), and whoever settles the ticket
    /// answers it later.
    public let park: (([JSONValue], PendingCalls.Ticket) throws(BridgeError) -> JSONValue?)?

    public init(_ name: String, delay: Double = 0, call: @escaping ([JSONValue]) throws(BridgeError) -> JSONValue) {
        self.name = name
        self.delay = delay
        self.call = call
        park = nil
    }

    /// A method that may park its call until JS answers a prompt: `park` answers now (a value)
    /// or keeps the ticket and answers nil.
    public init(
        _ name: String, parking: @escaping ([JSONValue], PendingCalls.Ticket) throws(BridgeError) -> JSONValue?
    ) {
        self.name = name
        delay = 0
        call = { _ throws(BridgeError) in
            throw .notImplemented("\(name) answers through its parking call")
        }
        park = parking
    }
}

/// A native module the JS layer talks to: a name, the namespace its methods carry on the wire
/// (empty for the sample bridges, whose JS calls bare names), its methods and its events.
public protocol NativeModule: AnyObject {
    var name: String { get }
    var namespace: String { get }
    var methods: [NativeMethod] { get }
    var events: [String] { get }
}

extension NativeModule {
    public var namespace: String { "" }
    public var events: [String] { [] }
}

/// A module that runs journeys: the app can open a suspended journey's e-mailed link, which
/// settles the way the module's `next` does.
public protocol JourneyModule: NativeModule {
    func resume(suspendedId: String) throws(BridgeError) -> JSONValue
}
