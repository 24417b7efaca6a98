/// One piece of saved state (`--state-dir`): where it goes under its owner's key
/// (`["users", "ada"]` under `server`; `[]` for an owner saved as one value) and what it holds.
public struct StateEntry: Equatable, Sendable {
    public var path: [String]
    public var value: JSONValue

    public init(_ path: [String], _ value: JSONValue) {
        self.path = path
        self.value = value
    }
}

/// A piece of saved state that changed: put with its new value, or deleted.
public enum StateEdit: Equatable, Sendable {
    case put(StateEntry)
    case delete([String])

    /// `value` nil: the piece was removed.
    public init(_ path: [String], _ value: JSONValue?) {
        self = value.map { .put(StateEntry(path, $0)) } ?? .delete(path)
    }
}

/// Something an app relaunch must find again: the server's users, sessions and grants, the
/// native SDKs' credentials, where the virtual clock and the seeded stream stood. The Host keeps
/// a list of owners and asks each the same four things, so the state directory knows nothing of
/// what it saves and an owner nothing of how it is saved (a snapshot, then a journal of edits).
public protocol StateOwner: AnyObject {
    /// The first part of the path of everything it saves (`server`, `native`, `clock`), and how
    /// errors name its entries.
    var stateKey: String { get }
    /// Everything it holds, for a snapshot.
    var stateEntries: [StateEntry] { get }
    /// What changed since the last call (or since `restoreState`), forgotten once taken: what one
    /// commit appends to the journal.
    func takeStateEdits() -> [StateEdit]
    /// Replaces what it holds with `entries`, every one saved under its key (none when the file
    /// holds none), or throws naming the first member at fault. `rollingBack`: undoing a change
    /// that could not be saved, rather than starting.
    func restoreState(_ entries: [StateEntry], rollingBack: Bool) throws(StateError)
}

extension StateEntry {
    /// The same entry one level down: under `part` (an owner's part, then the owner's key).
    public func under(_ part: String) -> StateEntry { StateEntry([part] + path, value) }

    /// The value to read, checked for its type, with errors naming it as `prefix.path…`
    /// (`server.oauth.retired.<token>: expected a time or null, found string`).
    public func field(under prefix: String) -> JSONField<StateError> {
        JSONField(value, at: JSONPath(([prefix] + path).joined(separator: ".")))
    }

    /// The error for an entry its owner does not keep (a path it never writes).
    public func unknown(under prefix: String) -> StateError {
        StateError("\(([prefix] + path).joined(separator: ".")): not saved state this authbridge knows")
    }
}

extension StateEdit {
    public func under(_ part: String) -> StateEdit {
        switch self {
        case .put(let entry): .put(entry.under(part))
        case .delete(let path): .delete([part] + path)
        }
    }
}

/// Whether an owner saved as one value (the path `[]`) changed since its edits were last taken:
/// such an owner marks it as it changes and answers `takeStateEdits` with `edits(of:)`.
public struct WholeStateChange: Sendable {
    private var changed = false

    public init() {}

    public mutating func mark() { changed = true }

    /// Forgets what changed: the owner and the disk agree (after a restore).
    public mutating func settle() { changed = false }

    /// The owner's one edit when it changed (its whole value), then forgotten.
    public mutating func edits(of value: @autoclosure () -> JSONValue) -> [StateEdit] {
        guard changed else { return [] }
        changed = false
        return [.put(StateEntry([], value()))]
    }
}
