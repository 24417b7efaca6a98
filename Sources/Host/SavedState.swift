import AuthBridgeCore
import StateStore

/// The `--state-dir` format: everything an app relaunch keeps — the native credentials (the old
/// SDK's and the Ping SDK's sessions and tokens), the server's users, sessions and grants, and
/// where the virtual clock and the seeded stream stood — as keyed entries
/// (`["server", "users", "ada"]`), each owner's under its key (`StateBook`). The snapshot
/// (`state.json`, version 2) holds them all; each commit appends only what changed to the
/// journal. A version-1 file is turned into entries here, once, so owners know one format.
enum SavedState {
    static let format = "authbridge-state"
    static let version: Int64 = 2

    static func snapshot(_ entries: StateEntries, sequence: Int64) -> JSONValue {
        ["format": .string(format), "version": .int(version), "seq": .int(sequence), "entries": entries.json]
    }

    /// The entries the disk holds: the snapshot (version 1's tree or version 2's entries), then
    /// every journal record after it, in order. Returns the last sequence number too.
    static func entries(_ saved: StateDirectory.Saved) throws(StateError) -> (StateEntries, sequence: Int64) {
        let reader = try StateReader(saved.snapshot, path: "")
        guard try reader.string("format") == format else { throw StateError("format: not an authbridge state file") }
        let found = try reader.int("version")
        // Version 1 wrote the whole tree on every change and kept no journal.
        if found == 1 { return (try Version1.entries(reader), 0) }
        guard found == version else {
            throw StateError("version: \(found) is not supported (this authbridge reads versions 1 and \(version))")
        }
        var entries = try StateEntries(json: try reader.value("entries"), member: "entries")
        var sequence = try reader.int("seq")
        for (index, record) in saved.records.enumerated() {
            let seq: Int64
            do { seq = try StateReader(record).int("seq") } catch {
                throw StateError("journal record \(index + 1): \(error.message)")
            }
            // A record the snapshot already holds (a kill between writing it and emptying the journal).
            guard seq > sequence else { continue }
            do {
                entries.apply(try StateChange(record: record))
            } catch {
                throw StateError("journal record \(index + 1): \(error.message)")
            }
            sequence = seq
        }
        return (entries, sequence)
    }
}
