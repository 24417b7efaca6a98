import AuthBridgeCore
import NativeSDK
import StateStore

/// The `--state-dir` format: everything an app relaunch keeps — the native credentials (the old
/// SDK's and the Ping SDK's sessions and tokens), the server's users, sessions and grants, and where the virtual clock and the seeded stream stood —
/// as keyed entries (`["server", "users", "ada"]`). The snapshot (`state.json`, version 2) holds
/// them all; each commit appends only what changed to the journal. A run without `--seed` or
/// without the virtual clock carries those two entries through as they were, so a seeded run
/// after it goes on with the stream instead of repeating the ids it already handed out.
enum SavedState {
    static let format = "authbridge-state"
    static let version: Int64 = 2

    /// The parts a run does not use itself but must keep for the runs that do.
    struct Carried {
        var clock: JSONValue?
        var random: JSONValue?
    }

    /// What the clock and the seeded stream were when last saved: they change without an owner
    /// to say so.
    struct Marks {
        var clock: Double?
        var random: UInt64?
    }

    // MARK: writing

    static func entries(of host: World) -> StateEntries {
        var entries = StateEntries()
        if let clock = clockJSON(host) { entries[["clock"]] = clock }
        if let random = randomJSON(host) { entries[["random"]] = random }
        entries[["native"]] = host.sdk.tokens.snapshot
        entries[["ping"]] = host.pingStores.snapshot
        for item in host.embedded.stateItems { entries[["server"] + item.path] = item.value }
        return entries
    }

    static func snapshot(_ entries: StateEntries, sequence: Int64) -> JSONValue {
        ["format": .string(format), "version": .int(version), "seq": .int(sequence), "entries": entries.json]
    }

    /// What changed since the last call: what one commit appends to the journal.
    static func changes(of host: World, marks: inout Marks) -> StateChange {
        var change = StateChange()
        if let virtual = host.clock as? VirtualClock, marks.clock != virtual.now {
            marks.clock = virtual.now
            change.put(["clock"], clockJSON(host)!)
        }
        if let seeded = host.random as? SeededRandomSource, marks.random != seeded.state {
            marks.random = seeded.state
            change.put(["random"], randomJSON(host)!)
        }
        if let native = host.sdk.tokens.takeStateChange() { change.put(["native"], native) }
        if let ping = host.pingStores.takeStateChange() { change.put(["ping"], ping) }
        for item in host.embedded.takeStateChanges() {
            if let value = item.value { change.put(["server"] + item.path, value) } else { change.delete(["server"] + item.path) }
        }
        return change
    }

    private static func clockJSON(_ host: World) -> JSONValue? {
        if let virtual = host.clock as? VirtualClock { return ["now": .double(virtual.now)] }
        return host.carried.clock
    }

    private static func randomJSON(_ host: World) -> JSONValue? {
        if let seeded = host.random as? SeededRandomSource { return ["state": .string(String(seeded.state))] }
        return host.carried.random
    }

    // MARK: reading

    /// The entries the disk holds: the snapshot (version 1's tree or version 2's entries), then
    /// every journal record after it, in order. Returns the last sequence number too.
    static func entries(_ saved: StateDirectory.Saved) throws(StateError) -> (StateEntries, Int64, legacy: JSONValue?) {
        let reader = try StateReader(saved.snapshot, path: "")
        guard try reader.string("format") == format else { throw StateError("format: not an authbridge state file") }
        let found = try reader.int("version")
        if found == 1 { return (StateEntries(), 0, saved.snapshot) }
        guard found == version else {
            throw StateError("version: \(found) is not supported (this authbridge reads versions 1 and \(version))")
        }
        var entries = try StateEntries(json: try reader.value("entries"), member: "entries")
        var sequence = try reader.int("seq")
        for (index, record) in saved.records.enumerated() {
            guard let seq = record["seq"]?.intValue else { throw StateError("journal record \(index + 1): no seq") }
            // A record the snapshot already holds (a kill between writing it and emptying the journal).
            guard seq > sequence else { continue }
            do {
                entries.apply(try StateChange(record: record))
            } catch {
                throw StateError("journal record \(index + 1): \(error.message)")
            }
            sequence = seq
        }
        return (entries, sequence, nil)
    }

    /// Restores the world from entries, checking every member first. At start-up the virtual
    /// clock only moves forward to the saved time; a rollback puts it back exactly.
    static func apply(_ entries: StateEntries, to host: World, rollingBack: Bool) throws(StateError) {
        var carried = Carried()
        var now: Double?
        if let clock = entries[["clock"]] {
            now = try StateReader(clock, path: "clock").time("now")
            carried.clock = clock
        }
        var stream: UInt64?
        if let random = entries[["random"]] {
            let text = try StateReader(random, path: "random").string("state")
            guard let state = UInt64(text) else { throw StateError("random.state: expected an unsigned integer") }
            stream = state
            carried.random = random
        }
        guard let native = entries[["native"]] else { throw StateError("native: missing") }
        try host.sdk.tokens.restore(try StateReader(native, path: "native"))
        // Files saved before the Ping SDK's stores were kept have none: empty stores.
        try host.pingStores.restore(try StateReader(entries[["ping"]] ?? PingStores().snapshot, path: "ping"))
        try host.embedded.restore(items: entries.children(of: ["server"]), path: "server")
        host.carried = carried
        restore(now: now, stream: stream, to: host, rollingBack: rollingBack)
    }

    /// Restores from a version-1 state file (one tree).
    static func apply(legacy saved: JSONValue, to host: World) throws(StateError) {
        let reader = try StateReader(saved, path: "")
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
        try host.embedded.restore(try reader.reader("server"))
        host.carried = carried
        restore(now: now, stream: stream, to: host, rollingBack: false)
    }

    private static func restore(now: Double?, stream: UInt64?, to host: World, rollingBack: Bool) {
        if let now, let virtual = host.clock as? VirtualClock {
            if rollingBack { virtual.set(to: now) } else { virtual.resume(at: now) }
        }
        if let stream, let seeded = host.random as? SeededRandomSource { seeded.state = stream }
    }
}
