import AuthBridgeCore

/// The `--state-dir` file's format: everything an app relaunch keeps — the native credentials,
/// the server's users, sessions and grants, and where the virtual clock and the seeded stream
/// stood. A run without `--seed` or without the virtual clock carries those two through as they
/// were, so a seeded run after it goes on with the stream instead of repeating the ids it
/// already handed out.
enum SavedState {
    static let format = "authbridge-state"
    static let version: Int64 = 1

    /// The parts a run does not use itself but must keep for the runs that do.
    struct Carried {
        var clock: JSONValue?
        var random: JSONValue?
    }

    static func snapshot(of host: Host) -> JSONValue {
        var state: JSONObject = ["format": .string(format), "version": .int(version)]
        if let virtual = host.clock as? VirtualClock {
            state["clock"] = ["now": .double(virtual.now)]
        } else if let clock = host.carried.clock {
            state["clock"] = clock
        }
        if let seeded = host.random as? SeededRandomSource {
            state["random"] = ["state": .string(String(seeded.state))]
        } else if let random = host.carried.random {
            state["random"] = random
        }
        state["native"] = host.sdk.tokens.snapshot
        state["server"] = host.server.snapshot
        return .object(state)
    }

    /// Restores what `saved` holds, checking every member first. At start-up the virtual clock
    /// only moves forward to the saved time; a rollback puts it back exactly.
    static func apply(_ saved: JSONValue, to host: Host, rollingBack: Bool = false) throws(StateError) {
        let reader = try StateReader(saved, path: "")
        guard try reader.string("format") == format else { throw StateError("format: not an authbridge state file") }
        let found = try reader.int("version")
        guard found == version else {
            throw StateError("version: \(found) is not supported (this authbridge reads version \(version))")
        }
        var carried = Carried()
        var now: Double?
        if reader.has("clock") {
            now = try reader.reader("clock").time("now")
            carried.clock = try reader.value("clock")
        }
        var stream: UInt64?
        if reader.has("random") {
            let text = try reader.reader("random").string("state")
            guard let state = UInt64(text) else { throw StateError("random.state: expected an unsigned integer") }
            stream = state
            carried.random = try reader.value("random")
        }
        try host.sdk.tokens.restore(try reader.reader("native"))
        try host.server.restore(try reader.reader("server"))
        host.carried = carried
        if let now, let virtual = host.clock as? VirtualClock {
            if rollingBack { virtual.set(to: now) } else { virtual.resume(at: now) }
        }
        if let stream, let seeded = host.random as? SeededRandomSource { seeded.state = stream }
    }
}
