import AuthBridgeCore

/// Saved state as keyed entries: a path (`["server", "users", "ada"]`) and its value. Owners of
/// state produce all their entries for a snapshot and only the changed ones for the journal, so
/// what a commit writes is proportional to what changed, not to what is stored.
public struct StateEntries: Sendable {
    public typealias Path = [String]

    private var values: [String: (path: Path, value: JSONValue)] = [:]

    public init() {}

    /// A key no path part can contain, joining parts into one dictionary key.
    private static func key(_ path: Path) -> String { path.joined(separator: "\u{1F}") }

    public subscript(path: Path) -> JSONValue? {
        get { values[Self.key(path)]?.value }
        set { values[Self.key(path)] = newValue.map { (path, $0) } }
    }

    public var count: Int { values.count }

    /// The entries at or under `prefix`, as (the rest of the path, value), in key order: an
    /// owner saved as one value has its entry at `[key]`, and finds it here as `[]`.
    public func entries(under prefix: Path) -> [(Path, JSONValue)] {
        values.values.filter { $0.path.count >= prefix.count && Array($0.path.prefix(prefix.count)) == prefix }
            .map { (Array($0.path.dropFirst(prefix.count)), $0.value) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
    }

    public mutating func apply(_ change: StateChange) {
        for (path, value) in change.puts { self[path] = value }
        for path in change.deletes { self[path] = nil }
    }

    /// Every entry as `[path, value]` pairs in path order: a snapshot's `entries`.
    public var json: JSONValue {
        .array(
            values.values.sorted { $0.path.lexicographicallyPrecedes($1.path) }.map { entry in
                [.array(entry.path.map { .string($0) }), entry.value]
            })
    }

    public init(json: JSONValue, member: String) throws(StateError) {
        guard case .array(let items) = json else { throw StateError("\(member): expected an array of [path, value]") }
        for (index, item) in items.enumerated() {
            self[try Self.path(item, at: "\(member)[\(index)]")] = item.arrayValue?[1]
        }
    }

    static func path(_ item: JSONValue, at member: String) throws(StateError) -> Path {
        guard case .array(let pair) = item, pair.count == 2, case .array(let parts) = pair[0], !parts.isEmpty,
            parts.allSatisfy({ $0.stringValue != nil })
        else { throw StateError("\(member): expected [path, value] with a path of strings") }
        return parts.compactMap(\.stringValue)
    }
}

/// What one commit changed: entries put (new or changed) and deleted.
public struct StateChange: Sendable {
    public var puts: [(StateEntries.Path, JSONValue)] = []
    public var deletes: [StateEntries.Path] = []

    public init() {}

    public var isEmpty: Bool { puts.isEmpty && deletes.isEmpty }

    public mutating func put(_ path: StateEntries.Path, _ value: JSONValue) { puts.append((path, value)) }
    public mutating func delete(_ path: StateEntries.Path) { deletes.append(path) }

    /// `{"seq": N, "put": [[path, value], …], "del": [path, …]}`
    public func record(sequence: Int64) -> JSONValue {
        [
            "seq": .int(sequence),
            "put": .array(puts.map { [.array($0.0.map { .string($0) }), $0.1] }),
            "del": .array(deletes.map { .array($0.map { .string($0) }) }),
        ]
    }

    /// Reads a record's `put` and `del`; each, when present, must be a list of the right shape.
    public init(record: JSONValue) throws(StateError) {
        let reader = try StateReader(record)
        for (index, item) in (try reader["put"].optionalArray() ?? []).enumerated() {
            put(try StateEntries.path(item, at: "put[\(index)]"), item.arrayValue![1])
        }
        for (index, item) in (try reader["del"].optionalArray() ?? []).enumerated() {
            guard case .array(let parts) = item, !parts.isEmpty, parts.allSatisfy({ $0.stringValue != nil }) else {
                throw StateError("del[\(index)]: expected a path of strings")
            }
            delete(parts.compactMap(\.stringValue))
        }
    }
}
