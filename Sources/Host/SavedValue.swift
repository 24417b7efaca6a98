import AuthBridgeCore

/// One value saved under its own key that a run may not use: where the virtual clock stood, the
/// seeded stream's state. A run that uses it saves it as it moves (nobody else says when it
/// changes, so each commit compares it with what was saved last); a run that does not (the
/// system clock, no `--seed`) carries the saved value through as it was, so a later run that
/// does goes on from it instead of repeating the ids it already handed out.
final class SavedValue<Value>: StateOwner {
    /// The live source: how to read it and how to put it where the disk says.
    struct Live {
        var read: () -> JSONValue
        var apply: (Value, _ rollingBack: Bool) -> Void
    }

    let stateKey: String
    private let parse: (StateReader) throws(StateError) -> Value
    private let live: Live?
    private var carried: JSONValue?
    private var saved: JSONValue?

    init(key: String, live: Live?, parse: @escaping (StateReader) throws(StateError) -> Value) {
        stateKey = key
        self.live = live
        self.parse = parse
    }

    private var current: JSONValue? { live?.read() ?? carried }

    var stateEntries: [StateEntry] { current.map { [StateEntry([], $0)] } ?? [] }

    func takeStateEdits() -> [StateEdit] {
        guard let value = current, value != saved else { return [] }
        saved = value
        return [.put(StateEntry([], value))]
    }

    /// Checks the saved value even when this run does not use it: a damaged file stops the start.
    func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError) {
        let value = entries.first { $0.path.isEmpty }?.value
        if let value {
            let parsed = try parse(try StateReader(value, path: stateKey))
            live?.apply(parsed, rollingBack)
        }
        carried = value
    }
}

extension SavedValue where Value == Double {
    /// `{"now": seconds}`. At start-up the virtual clock only moves forward to the saved time; a
    /// rollback puts it back exactly.
    static func clock(_ virtual: VirtualClock?) -> SavedValue {
        let live = virtual.map { clock in
            Live(
                read: { ["now": .double(clock.now)] },
                apply: { now, rollingBack in
                    if rollingBack { clock.set(to: now) } else { clock.resume(at: now) }
                })
        }
        return SavedValue(key: "clock", live: live) { reader throws(StateError) in try reader.time("now") }
    }
}

extension SavedValue where Value == UInt64 {
    /// `{"state": "<digits>"}`: text, as a UInt64 may not fit the Int64 a JSON integer is read into.
    static func random(_ seeded: SeededRandomSource?) -> SavedValue {
        let live = seeded.map { source in
            Live(read: { ["state": .string(String(source.state))] }, apply: { state, _ in source.state = state })
        }
        return SavedValue(key: "random", live: live) { reader throws(StateError) in
            // Digits only: `UInt64("+5")` would take a sign the writer never wrote.
            let text = try reader.string("state")
            guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) }), let state = UInt64(text) else {
                throw StateError("\(reader.path).state: expected an unsigned integer")
            }
            return state
        }
    }
}
