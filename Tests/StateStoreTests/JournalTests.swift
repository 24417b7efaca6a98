import AuthBridgeCore
import Foundation
import Testing

@testable import StateStore

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
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: path + "/state.json")) == snapshotBefore,
            "appends never rewrite the snapshot")
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

    @Test func onlyTheLastRecordMayBeTorn() {
        let good = JournalLine.encode(Self.change("ada", 1).record(sequence: 1))
        let next = JournalLine.encode(Self.change("bob", 2).record(sequence: 2))
        // Cut inside the last record (a kill during its append): the first stands, the tail is torn.
        let torn = JournalLine.decode(good + next.prefix(next.count - 5))
        #expect(torn.records.count == 1 && torn.validBytes == good.count && torn.damage == nil)
        #expect(torn.tornTail == next.count - 5)
        // The last record whole but failing its checksum (its blocks reached the disk in part).
        var lastFlipped = good + next
        lastFlipped[good.count + 30] ^= 0x01
        #expect(JournalLine.decode(lastFlipped).tornTail == next.count)
        #expect(JournalLine.decode(lastFlipped).damage == nil)
        // A flipped byte with intact records after it is damage in the middle, not a torn tail.
        var flipped = good + next + good
        flipped[good.count + 30] ^= 0x01
        let damaged = JournalLine.decode(flipped)
        #expect(damaged.records.count == 1 && damaged.tornTail == nil)
        #expect(damaged.damage == JournalDamage(line: 2, offset: good.count, intactAfter: 1))
        // Damage, then a torn tail: still damage (one crash tears one record, the last).
        #expect(JournalLine.decode(flipped + next.prefix(4)).damage?.intactAfter == 1)
    }

    /// A journal of `records` changes on a fresh snapshot, its second record damaged.
    static func damagedDirectory(records: Int) throws -> (path: String, snapshot: Data, journal: Data) {
        let path = Self.directory()
        do {
            let directory = try StateDirectory(path: path)
            try directory.compact(JSONWriter().bytes(Self.snapshot))
            for n in 1...records {
                try directory.append(Self.change("u\(n)", ["n": .int(Int64(n))]).record(sequence: Int64(n)))
            }
        }
        var journal = try Data(contentsOf: URL(fileURLWithPath: path + "/state.journal"))
        let second = journal.firstIndex(of: 0x0A)! + 1
        journal[second + 3] = journal[second + 3] == 0x30 ? 0x31 : 0x30  // a checksum digit
        try journal.write(to: URL(fileURLWithPath: path + "/state.journal"))
        return (path, try Data(contentsOf: URL(fileURLWithPath: path + "/state.json")), journal)
    }

    /// Records acknowledged after a damaged one are never dropped by a plain start: the load
    /// stops naming the line, and leaves the files exactly as they were.
    @Test func damageInTheMiddleStopsTheLoadAndChangesNothing() throws {
        let (path, snapshot, journal) = try Self.damagedDirectory(records: 4)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let directory = try StateDirectory(path: path)
        #expect {
            _ = try directory.load()
        } throws: { error in
            guard let failure = error as? StateDirectory.Failure else { return false }
            return failure.damage == JournalDamage(line: 2, offset: journal.firstIndex(of: 0x0A)! + 1, intactAfter: 2)
                && failure.message.contains(path + "/state.journal") && failure.message.contains("line 2")
                && failure.message.contains("--recover-state last-good")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/state.journal")) == journal)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/state.json")) == snapshot)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: path).sorted() == [
                "lock", "state.journal", "state.json",
            ])
    }

    /// Asked to, a load goes on from the records before the damage, after keeping a copy of the
    /// snapshot and the journal as they were; a second recovery keeps a second copy.
    @Test func recoveringFromTheLastGoodRecordKeepsACopy() throws {
        let (path, snapshot, journal) = try Self.damagedDirectory(records: 3)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let directory = try StateDirectory(path: path)
            #expect(try directory.load(recovery: .lastGood)?.records.map { $0["seq"] } == [1])
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/state.journal.damaged-1")) == journal)
            #expect(try Data(contentsOf: URL(fileURLWithPath: path + "/state.json.damaged-1")) == snapshot)
            #expect(directory.journalBytes == Int64(journal.firstIndex(of: 0x0A)! + 1))
            try directory.append(Self.change("v", 1).record(sequence: 2))
        }
        try journal.write(to: URL(fileURLWithPath: path + "/state.journal"))
        let again = try StateDirectory(path: path)
        #expect(try again.load(recovery: .lastGood)?.records.count == 1)
        #expect(FileManager.default.fileExists(atPath: path + "/state.journal.damaged-2"))
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

    /// A record's lists are checked for their type: a `put` that is not a list was once read as
    /// "nothing put".
    @Test func aRecordOfTheWrongShapeIsRefused() {
        #expect(throws: StateError("put: expected an array or null, found string")) {
            try StateChange(record: ["seq": 1, "put": "x"])
        }
        #expect(throws: StateError("del: expected an array or null, found object")) {
            try StateChange(record: ["seq": 1, "del": [:]])
        }
        #expect(throws: StateError(": expected an object, found array")) { try StateChange(record: []) }
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
        let roundTrip = try StateEntries(
            json: try JSONParser.parse(JSONWriter().bytes(entries.json)), member: "entries")
        #expect(roundTrip[["server", "users", "ada"]] == ["n": 1])
    }
}
