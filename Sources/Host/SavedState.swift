import AuthBridgeCore

/// The `--state-dir` file's format: everything an app relaunch keeps — the native credentials,
/// the server's users, sessions and grants, and, in deterministic mode, where the virtual clock
/// and the seeded stream stood.
enum SavedState {
    static let format = "authbridge-state"
    static let version: Int64 = 1

    static func snapshot(of host: Host) -> JSONValue {
        var state: JSONObject = ["format": .string(format), "version": .int(version)]
        if let virtual = host.clock as? VirtualClock { state["clock"] = ["now": .double(virtual.now)] }
        if let seeded = host.random as? SeededRandomSource { state["random"] = ["state": .string(String(seeded.state))] }
        state["native"] = host.sdk.tokens.snapshot
        state["server"] = host.server.snapshot
        return .object(state)
    }

    static func apply(_ saved: JSONValue, to host: Host) throws(StateError) {
        let reader = try StateReader(saved, path: "")
        guard try reader.string("format") == format else { throw StateError("format: not an authbridge state file") }
        let found = try reader.int("version")
        guard found == version else {
            throw StateError("version: \(found) is not supported (this authbridge reads version \(version))")
        }
        try host.sdk.tokens.restore(try reader.reader("native"))
        try host.server.restore(try reader.reader("server"))
        if reader.has("clock"), let virtual = host.clock as? VirtualClock {
            virtual.resume(at: try reader.reader("clock").double("now"))
        }
        if reader.has("random"), let seeded = host.random as? SeededRandomSource {
            let text = try reader.reader("random").string("state")
            guard let state = UInt64(text) else { throw StateError("random.state: expected an unsigned integer") }
            seeded.state = state
        }
    }
}
