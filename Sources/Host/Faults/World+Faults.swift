import AuthBridgeCore

/// The fault plan as emulator operations (`emulator.fault`, `emulator.faults`,
/// `emulator.clearFaults`; the admin API's fault endpoints call the same).
extension World {
    /// Adds a fault; it hits from the next request on.
    public func setFault(_ spec: FaultSpec) -> Fault { faultPlan.add(spec) }

    /// The faults still to hit, in the order they were set.
    public var faults: [Fault] { faultPlan.faults }

    /// Clears the fault `id`, or every fault; the ones cleared.
    public func clearFaults(id: String?) throws(EmulatorError) -> [Fault] {
        guard let cleared = faultPlan.clear(id: id) else {
            let known = faultPlan.faults.map(\.id)
            throw EmulatorError(
                param: "id",
                reason: "no fault \(id ?? "") (faults: \(known.isEmpty ? "none" : known.joined(separator: ", ")))")
        }
        return cleared
    }
}
