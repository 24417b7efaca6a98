/// A JSON value that keeps what the wire needs and Foundation loses: integer vs fractional numbers
/// (a fractional request id is an error) and member order (output must replay byte for byte).
public enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// An ordered JSON object. Lookups are linear: the objects on this wire have a handful of members.
/// Duplicate keys from the parser are kept; a lookup sees the last one, as `JSON.parse` does.
public struct JSONObject: Equatable, Sendable, ExpressibleByDictionaryLiteral {
    public struct Member: Equatable, Sendable {
        public var key: String
        public var value: JSONValue
    }

    public private(set) var members: [Member]

    public init() { members = [] }

    public init(_ pairs: [(String, JSONValue)]) {
        members = pairs.map { Member(key: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self.init(elements)
    }

    public init(members: [Member]) { self.members = members }

    public var count: Int { members.count }
    public var keys: [String] { members.map(\.key) }

    public subscript(key: String) -> JSONValue? {
        get {
            for member in members.reversed() where member.key == key { return member.value }
            return nil
        }
        set {
            if let index = members.lastIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                members.append(Member(key: key, value: newValue))
            }
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByFloatLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(elements)) }
    public init(floatLiteral value: Double) { self = .double(value) }
}

extension JSONValue {
    public init(_ string: String?) { self = string.map { .string($0) } ?? .null }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var objectValue: JSONObject? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// An integer, also from a double with no fractional part (JS sends `2` as a double at times).
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d) where d.rounded() == d && abs(d) < 9.0e15: return Int64(d)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public var isNull: Bool { self == .null }

    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }

    /// The kinds of JSON value; the raw value names it in error messages.
    public enum Kind: String, Sendable {
        case null, boolean, integer, number, string, array, object
    }

    public var kind: Kind {
        switch self {
        case .null: return .null
        case .bool: return .boolean
        case .int: return .integer
        case .double: return .number
        case .string: return .string
        case .array: return .array
        case .object: return .object
        }
    }

    /// The JSON type name, for error messages that say what was received.
    public var typeName: String { kind.rawValue }
}
