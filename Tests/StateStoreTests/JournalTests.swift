import AuthBridgeCore
import Foundation
@testable import StateStore
import Testing

/// The journal: what a commit appends, what a restart reads back, and what a crash mid-append
/// leaves (a torn last record, dropped, never anything after it).
@Suite struct JournalOnDisk {
    static func directory() -> String { NSTemporaryDirectory() + "authbridge-journal-\(UUID().uuidString)" }

    static func change(_ key: String, _ value: JSONValue) -> StateChange {
        var change = StateChange()
        change.put(["server", "users", key], value)
        return change
    }

    static let snapshot: JSONValue = ["format": "authbridge-state", "version": 2, "seq": 0, "entries": []]

    @Test func recordsAppendedAreReadBackInOrder() throws {
        let path = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let snapshotBefore: Data
        do {
            let first = try StateDirectory(path: path)
            #expect(try first.load() == nil)
            try first.compact(JSONWriter().bytes(Self.snapshot))
            snapshotBefore = try Data(contentsOf: URL(fileURLWithPath: path + "/state.json"))
            try first.append(Self.change("ada", ["n": 1]).record(sequence: 1))
            try first.append(Self.change("bob", ["n": 2]).record(sequence: 2))
            let journal = try String(contentsOfFile: path + "/state.journal", encoding: .utf8)
            #expect(journal.split(separator: "\n").count == 2)
        }
        let reopened = try StateDirectory(path: path)
        let saved = try #require(try reopened.load())
        #expect(saved.records.map { $0["seq"] } == [1, 2])
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/state.json")) == snapshotBefore, "appends never rewrite the snapshot")
    }

    /// A restart loads the journal (reading it to its end), folds it into the snapshot and
    /// empties it; what it appends next must start the emptied file, not follow a hole where
    /// the old records were (a hole of NULs that the run after would read as a torn record,
    /// losing every change of this run).
    @Test func appendsAfterARestartsCompactionStartTheEmptiedJournal() throws {
        let path = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let first = try StateDirectory(path: path)
            try first.compact(JSONWriter().bytes(Self.snapshot))
            try first.append(Self.change("ada", ["n": 1]).record(sequence: 1))
        }
        do {
            let second = try StateDirectory(path: path)
            #expect(try second.load()?.records.count == 1)
            try second.compact(JSONWriter().bytes(Self.snapshot))
            try second.append(Self.change("bob", ["n": 2]).record(sequence: 2))
        }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path + "/state.journal"))
        #expect(bytes.first != 0, "no hole before the record")
        let third = try StateDirectory(path: path)
        #expect(try third.load()?.records.map { $0["seq"] } == [2])
    }

    @Test func aTornOrDamagedTailIsDroppedAndNothingAfterItCounts() {
        let good = JournalLine.encode(Self.change("ada", 1).record(sequence: 1))
        let next = JournalLine.encode(Self.change("bob", 2).record(sequence: 2))
        // Cut inside the second record: the first stands, the rest is dropped.
        let torn = good + next.prefix(next.count - 5)
        #expect(JournalLine.decode(torn).records.count == 1)
        #expect(JournalLine.decode(torn).validBytes == good.count)
        // A flipped byte fails the checksum; a later intact record is not believed either.
        var flipped = good + next + good
        flipped[good.count + 30] ^= 0x01
        #expect(JournalLine.decode(flipped).records.count == 1)
    }

    @Test func aTornTailIsCutOffTheFileAtLoad() throws {
        let path = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let directory = try StateDirectory(path: path)
            try directory.compact(JSONWriter().bytes(Self.snapshot))
            try directory.append(Self.change("ada", 1).record(sequence: 1))
        }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path + "/state.journal"))
        handle.seekToEndOfFile()
        handle.write(Data("0123456789abcdef {\"seq\":2,\"put\":[[[\"x\"]".utf8))
        try handle.close()
        let reopened = try StateDirectory(path: path)
        #expect(try reopened.load()?.records.count == 1)
        let size = try FileManager.default.attributesOfItem(atPath: path + "/state.journal")[.size] as? Int
        #expect(size == JournalLine.encode(Self.change("ada", 1).record(sequence: 1)).count)
    }

    @Test func entriesApplyPutsAndDeletesByPath() throws {
        var entries = StateEntries()
        entries[["native"]] = ["generation": 0]
        entries.apply(Self.change("ada", ["n": 1]))
        var delete = StateChange()
        delete.delete(["native"])
        entries.apply(delete)
        #expect(entries[["native"]] == nil)
        #expect(entries.entries(under: ["server", "users"]).map(\.0) == [["ada"]])
        let roundTrip = try StateEntries(json: try JSONParser.parse(JSONWriter().bytes(entries.json)), member: "entries")
        #expect(roundTrip[["server", "users", "ada"]] == ["n": 1])
    }
}
