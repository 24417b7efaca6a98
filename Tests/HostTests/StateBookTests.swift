import AuthBridgeCore
import StateStore
import Testing

@testable import Host

/// The owners of saved state as the Host sees them: one book, each owner under its key; the
/// clock and the seeded stream owners like the others.
@Suite struct StateBookTests {
    /// An owner of named values, recording which changed.
    final class Notes: StateOwner {
        let stateKey: String
        var notes: [String: JSONValue] = [:] {
            didSet { changed.formUnion(Set(notes.keys).symmetricDifference(oldValue.keys)) }
        }
        var changed: Set<String> = []

        init(_ key: String) { stateKey = key }

        var stateEntries: [StateEntry] { notes.keys.sorted().map { StateEntry([$0], notes[$0]!) } }

        func takeStateEdits() -> [StateEdit] {
            defer { changed.removeAll() }
            return changed.sorted().map { StateEdit([$0], notes[$0]) }
        }

        func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError) {
            notes = Dictionary(uniqueKeysWithValues: entries.map { ($0.path[0], $0.value) })
            changed.removeAll()
        }
    }

    @Test func editsAreJournaledUnderEachOwnersKeyInTheBooksOrder() throws {
        let first = Notes("first")
        let second = Notes("second")
        let book = StateBook([second, first])
        first.notes["a"] = 1
        second.notes["b"] = 2
        #expect(book.takeChange().puts.map(\.0) == [["second", "b"], ["first", "a"]])
        #expect(book.takeChange().isEmpty, "taken once")
        second.notes["b"] = nil
        #expect(book.takeChange().deletes == [["second", "b"]])

        first.notes["c"] = 3
        var entries = book.entries
        #expect(entries.entries(under: ["first"]).map(\.0) == [["a"], ["c"]])
        entries[["second", "d"]] = 4
        entries[["nobody"]] = 5
        try book.restore(entries, rollingBack: false)
        #expect(second.notes == ["d": 4])
        #expect(first.notes == ["a": 1, "c": 3])
    }

    /// The seeded stream's state is the digits it was written as: a sign, a space or a number
    /// where text belongs is refused, not read as a close enough value.
    @Test(
        arguments: [
            (["state": "+5"], "random.state: expected an unsigned integer"),
            (["state": " 5"], "random.state: expected an unsigned integer"),
            (["state": "18446744073709551616"], "random.state: expected an unsigned integer"),
            (["state": 5], "random.state: expected a string, found integer"),
            ("5", "random: expected an object, found string"),
        ] as [(JSONValue, String)])
    func aSavedRandomStateOfTheWrongShapeIsRefused(saved: JSONValue, message: String) throws {
        #expect(throws: StateError(message)) {
            try SavedValue.random(nil).restoreState([StateEntry([], saved)], rollingBack: false)
        }
        try SavedValue.random(nil).restoreState([StateEntry([], ["state": "5"])], rollingBack: false)
    }

    @Test func aClockThisRunDoesNotUseIsCarriedThroughAndNeverEdited() throws {
        let owner = SavedValue.clock(nil)
        try owner.restoreState([StateEntry([], ["now": 1_767_225_600])], rollingBack: false)
        #expect(owner.takeStateEdits() == [.put(StateEntry([], ["now": 1_767_225_600]))], "settling")
        #expect(owner.takeStateEdits() == [])
        #expect(owner.stateEntries == [StateEntry([], ["now": 1_767_225_600])])
        #expect(throws: StateError("clock.now: expected a number, found string")) {
            try owner.restoreState([StateEntry([], ["now": "soon"])], rollingBack: false)
        }
    }

    @Test func aVirtualClockIsEditedWhenItMovesAndRestoredForwardOrBack() throws {
        let clock = VirtualClock(epoch: 1000)
        let owner = SavedValue.clock(clock)
        _ = owner.takeStateEdits()
        #expect(owner.takeStateEdits() == [])
        clock.advance(by: 5)
        #expect(owner.takeStateEdits() == [.put(StateEntry([], ["now": .double(1005)]))])
        try owner.restoreState([StateEntry([], ["now": 900])], rollingBack: false)
        #expect(clock.now == 1005, "a start only moves the clock forward")
        try owner.restoreState([StateEntry([], ["now": 900])], rollingBack: true)
        #expect(clock.now == 900, "a rollback puts it back")
    }

    @Test func theSeededStreamGoesOnFromWhereItWasSaved() throws {
        let seeded = SeededRandomSource(seed: 1)
        let owner = SavedValue.random(seeded)
        try owner.restoreState([StateEntry([], ["state": "42"])], rollingBack: false)
        #expect(seeded.state == 42)
        #expect(throws: StateError("random.state: expected an unsigned integer")) {
            try SavedValue.random(nil).restoreState([StateEntry([], ["state": "-1"])], rollingBack: false)
        }
    }
}
