import AuthBridgeCore
import Host
import NativeModules

/// A Host in process, driven the way an app's JS drives its native module: methods called by
/// name with positional arguments, each a unit of work of its own; the resolved value or the
/// rejection read back; events recorded in the order they were sent.
public final class ModuleHarness {
    public let host: Host
    private let recorder = EventRecorder()

    public convenience init(
        flavor: Flavor = .reactNativeIOS, bridge: BridgeVariant = .sample, seed: UInt64 = 5,
        callbacks: CallbackHandling = .sample
    ) {
        var configuration = HostConfiguration()
        configuration.flavor = flavor
        configuration.variant = bridge
        configuration.seed = seed
        configuration.clock = .virtual(epoch: VirtualClock.defaultEpoch)
        configuration.callbacks = callbacks
        try! self.init(configuration: configuration)
    }

    /// A Host of any configuration (a state directory, for instance).
    public init(configuration: HostConfiguration) throws(Host.StartFailure) {
        host = try Host(configuration: configuration)
        host.attach(recorder)
    }

    /// Moves the virtual clock, as `emulator.advanceClock` does (without its checks).
    public func advanceClock(by seconds: Double) {
        perform { world in (world.clock as! VirtualClock).advance(by: seconds) }
    }

    public func call(_ name: String, _ args: JSONValue...) throws(BridgeError) -> JSONValue {
        try call(name, arguments: args)
    }

    /// A native method as the stdio face calls it: one unit, or for a method that settles later
    /// (`--start-delay`), the wait with the world released and then a unit of its own.
    public func call(_ name: String, arguments: [JSONValue]) throws(BridgeError) -> JSONValue {
        guard host.view.wireNames.contains(name) else { fatalError("no native method \(name)") }
        let outcome: Result<JSONValue, BridgeError>
        switch Self.durable(host.perform { world in world.invoke(name, arguments) }) {
        case .settled(let settled): outcome = settled
        case .later(let later):
            ProcessControl.sleep(seconds: later.seconds)
            outcome = Self.durable(host.perform { world in world.settle(later) })
        case .parked: fatalError("\(name) waits for JS: call it with begin(_:_:) and read reply(to:)")
        }
        return try outcome.get()
    }

    /// What a call that may wait for JS gives: its outcome now, or the address its answer will
    /// come to once a later call settles it (`reply(to:)`).
    public enum Outcome {
        case settled(Result<JSONValue, BridgeError>)
        case parked(JSONValue)
    }

    private var nextAddress: Int64 = 1

    /// Calls a method that may park (a binding call that prompts for a PIN).
    public func begin(_ name: String, _ args: JSONValue...) -> Outcome { begin(name, arguments: args) }

    public func begin(_ name: String, arguments args: [JSONValue]) -> Outcome {
        guard host.view.wireNames.contains(name) else { fatalError("no native method \(name)") }
        let address = JSONValue.int(nextAddress)
        nextAddress += 1
        switch Self.durable(host.perform { world in world.invoke(name, args, replyTo: address) }) {
        case .settled(let settled): return .settled(settled)
        case .later(let later):
            ProcessControl.sleep(seconds: later.seconds)
            return .settled(Self.durable(host.perform { world in world.settle(later) }))
        case .parked: return .parked(address)
        }
    }

    /// A call a test expects to park: its address, or an error saying how it settled instead.
    public func parked(_ name: String, _ args: JSONValue...) throws -> JSONValue {
        let outcome = begin(name, arguments: args)
        guard case .parked(let address) = outcome else { throw NotParked(name: name, outcome: outcome) }
        return address
    }

    public struct NotParked: Error, CustomStringConvertible {
        public let name: String
        public let outcome: Outcome
        public var description: String { "\(name) did not park: it settled with \(outcome)" }
    }

    /// The answer a parked call got, once settled; nil while it still waits.
    public func reply(to address: JSONValue) -> Result<JSONValue, BridgeError>? { recorder.takeReply(address) }

    /// Reads or changes the world in a unit of its own (what a test looks at, between calls).
    public func perform<T: Sendable>(_ work: (World) -> T) -> T { Self.durable(host.perform(work)) }

    private static func durable<T>(_ outcome: Result<T, Host.NotDurable>) -> T {
        switch outcome {
        case .success(let answer): return answer
        case .failure(let failure): fatalError("state not saved: \(failure.reason); use a face to see this answered")
        }
    }

    public func rejection(_ name: String, _ args: JSONValue...) -> BridgeError? {
        do {
            _ = try call(name, arguments: args)
            return nil
        } catch {
            return error
        }
    }

    /// The events sent since the last call: (name, params), in order.
    public func takeEvents() -> [(String, JSONValue)] { recorder.take() }

    /// What the sample's JS does: parse the step string, set input values, stringify the payload.
    public static func answer(_ stepString: String, _ values: [String]) -> JSONValue {
        answer(stepString, values: values.map { .string($0) })
    }

    /// Sets input 0 of callback i to values[i]; an array sets inputs 0, 1, … (KBA question and
    /// answer); null leaves the callback as it is.
    public static func answer(_ stepString: String, values: [JSONValue]) -> JSONValue {
        var step = try! JSONParser.parse(stepString).objectValue!
        var callbacks = step["callbacks"]!.arrayValue!
        for (index, value) in values.enumerated() where value != .null {
            var callback = callbacks[index].objectValue!
            var inputs = callback["input"]!.arrayValue!
            for (k, v) in (value.arrayValue ?? [value]).enumerated() {
                var input = inputs[k].objectValue!
                input["value"] = v
                inputs[k] = .object(input)
            }
            callback["input"] = .array(inputs)
            callbacks[index] = .object(callback)
        }
        step["callbacks"] = .array(callbacks)
        return .string(JSONValue.object(step).compactText)
    }

    /// `login()` then `next()` with the credentials, as the sample app's sign-in screen does.
    public func login(_ username: String = "demo", _ password: String = "Ch4ng3it!") throws(BridgeError) -> JSONValue {
        let step = try call("login").stringValue!
        return try call("next", Self.answer(step, [username, password]))
    }

    /// The demo user's credentials as the payload a sample app's `next` sends.
    public static let demo =
        #"{"callbacks":[{"type":"NameCallback","input":[{"name":"IDToken1","value":"demo"}]},{"type":"PasswordCallback","input":[{"name":"IDToken2","value":"Ch4ng3it!"}]}]}"#
}

/// Keeps the events a Host sends, for a test to read.
public final class EventRecorder: EventSink {
    private var events: [(String, JSONValue)] = []
    private var replies: [(address: JSONValue, outcome: Result<JSONValue, BridgeError>)] = []

    public init() {}

    public func deliver(event: String, params: JSONValue) { events.append((event, params)) }

    public func deliver(reply address: JSONValue, outcome: Result<JSONValue, BridgeError>) {
        replies.append((address, outcome))
    }

    /// The answer of the parked call made with `address`, once it settled (taken once).
    public func takeReply(_ address: JSONValue) -> Result<JSONValue, BridgeError>? {
        guard let index = replies.firstIndex(where: { $0.address == address }) else { return nil }
        return replies.remove(at: index).outcome
    }
    public func flush() {}

    public func take() -> [(String, JSONValue)] {
        defer { events = [] }
        return events
    }
}
