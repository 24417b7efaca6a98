import IdentityServer

/// The faults asked for (`emulator.fault`), owned by the world: the identity server's decorator
/// and PingOne's (`FaultingServer`, `FaultingPingOne`) and the HTTP face consult it, inside their units. A hit counts the fault
/// down; a used-up fault leaves the plan. No randomness: the first fault set that matches hits.
/// What a hit asks of the face (a wait, a dropped or silent connection) is kept until the face
/// takes it as its unit ends (`takeEffect`), so the wait happens with the world released.
public final class FaultPlan {
    /// What the faults that hit during a unit ask the face to do with its answer.
    public enum Effect: Equatable, Sendable {
        /// Answer `seconds` late.
        case delay(Double)
        /// Close the connection with no answer (stdio: the call fails at once).
        case drop
        /// Answer nothing for `seconds`, then close (stdio: the call fails after the wait).
        case timeout(Double)
    }

    public private(set) var faults: [Fault] = []
    private var setCount = 0
    private var owed: Effect?

    public init() {}

    public func add(_ spec: FaultSpec) -> Fault {
        setCount += 1
        let fault = Fault(id: "fault-\(setCount)", spec: spec, remaining: spec.count)
        faults.append(fault)
        return fault
    }

    /// Clears one fault by id, or all; the faults cleared, nil when `id` names none.
    public func clear(id: String?) -> [Fault]? {
        guard let id else {
            defer { faults.removeAll() }
            return faults
        }
        guard let index = faults.firstIndex(where: { $0.id == id }) else { return nil }
        return [faults.remove(at: index)]
    }

    /// A call of the identity server: the kind of the fault it hits, if any.
    public func hit(operation: IdentityOperation) -> FaultSpec.Kind? {
        hit { $0 == .operation(operation) }
    }

    /// A request to the PingOne server: the kind of the fault it hits, if any.
    public func hit(pingOne operation: PingOneOperation) -> FaultSpec.Kind? {
        hit { $0 == .pingOne(operation) }
    }

    /// A request on the HTTP face, by its endpoint (nil for a path no endpoint serves) and path.
    public func hit(endpoint: AMEndpoint?, path: String) -> FaultSpec.Kind? {
        hit { target in
            switch target {
            case .operation, .pingOne: return false
            case .route(let route): return route == endpoint
            case .path(let prefix): return path.hasPrefix(prefix)
            }
        }
    }

    /// What the unit's hits ask of the face, taken once; a face that has nothing to do with it
    /// (an `emulator.*` method) leaves it for the next face's unit to discard.
    public func takeEffect() -> Effect? {
        defer { owed = nil }
        return owed
    }

    /// Forgets what an earlier unit's hits asked of a face that did not take it.
    public func discardEffect() { owed = nil }

    private func hit(_ matches: (FaultSpec.Target) -> Bool) -> FaultSpec.Kind? {
        guard let index = faults.firstIndex(where: { matches($0.spec.target) }) else { return nil }
        faults[index].hits += 1
        let kind = faults[index].spec.kind
        if let remaining = faults[index].remaining {
            if remaining <= 1 { faults.remove(at: index) } else { faults[index].remaining = remaining - 1 }
        }
        switch (kind, owed) {
        case (.status, _): break
        // Latencies of one unit's calls add up, before whatever ends it.
        case (.latency(let seconds), .delay(let before)?): owed = .delay(before + seconds)
        case (.latency(let seconds), nil): owed = .delay(seconds)
        case (.latency, _): break
        case (.drop, _): owed = .drop
        case (.timeout(let seconds), _): owed = .timeout(seconds)
        }
        return kind
    }
}
