import AuthBridgeCore

/// Native promises JS is still waiting on. Most native methods settle in the call that made them;
/// some wait for JS itself: `RNPingBinding.bindForJourney` emits `RNPingBinding_PinRequired` and
/// settles only once JS calls `resolvePin` (`binding/ios/BindingEventBridge.swift`). Such a method
/// parks its call here and answers nothing now; whichever later call settles it (in the same or
/// another unit of work) hands the outcome back, and the world delivers it to the face that
/// parked it once that unit is durable, after the unit's events.
public final class PendingCalls {
    /// A parked call: where its answer goes (the face's address, the JSON-RPC id on stdio) and
    /// the wire name it was called by.
    public struct Ticket: Hashable, Sendable {
        public let number: Int
        public let wireName: String
    }

    private var nextNumber = 1
    private var parked: [Int: JSONValue] = [:]
    /// Tickets issued in the unit of work under way: if its change is lost, the face answers
    /// their requests with the error, so nothing may answer them again.
    private var issuedThisUnit: [Int] = []
    /// Settled since the world last took them: the face's address and the outcome.
    private var settled: [(address: JSONValue, outcome: Result<JSONValue, BridgeError>)] = []

    public init() {}

    /// A ticket for the call being made, whose answer goes to `address`.
    public func ticket(wireName: String, address: JSONValue) -> Ticket {
        defer { nextNumber += 1 }
        parked[nextNumber] = address
        issuedThisUnit.append(nextNumber)
        return Ticket(number: nextNumber, wireName: wireName)
    }

    /// The ticket of a call that answered at once after all: nothing waits on it.
    public func discard(_ ticket: Ticket) { parked[ticket.number] = nil }

    /// Whether a ticket's call is still waiting (not settled, not discarded).
    public func isWaiting(_ ticket: Ticket) -> Bool { parked[ticket.number] != nil }

    /// Settles a parked call; a ticket already settled is ignored (false), as a promise settles once.
    @discardableResult
    public func settle(_ ticket: Ticket, _ outcome: Result<JSONValue, BridgeError>) -> Bool {
        guard let address = parked.removeValue(forKey: ticket.number) else { return false }
        settled.append((address, outcome))
        return true
    }

    /// The calls settled since last asked, in the order they settled.
    public func take() -> [(address: JSONValue, outcome: Result<JSONValue, BridgeError>)] {
        defer { settled.removeAll() }
        return settled
    }

    /// The unit of work ended durable: its parked calls wait on.
    public func unitCommitted() { issuedThisUnit.removeAll() }

    /// The unit of work's change was lost: the calls it parked were answered with that error, so
    /// they wait no longer (a later settle of their tickets is ignored).
    public func unitLost() {
        for number in issuedThisUnit { parked[number] = nil }
        issuedThisUnit.removeAll()
    }

    /// How many calls wait (what a shutdown or the inspector can report).
    public var waitingCount: Int { parked.count }
}

/// Where a module's events go (`NativeEventEmitter` on the JS side): the world hands them to the
/// stdio host once the unit that caused them is durable, ahead of its response.
public final class ModuleEvents {
    var sink: (String, JSONValue) -> Void = { _, _ in }

    public init() {}

    /// Sends `event` with `params` to JS.
    public func emit(_ event: String, _ params: JSONValue) { sink(event, params) }

    /// Wires the events to whoever delivers them (the world).
    public func connect(_ sink: @escaping (String, JSONValue) -> Void) { self.sink = sink }
}
