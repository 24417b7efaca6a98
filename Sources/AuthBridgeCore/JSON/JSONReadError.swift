/// What a `JSONReader` found wrong, as fields: where, what it wanted, what was there. Each caller
/// turns it into its own error (a −32602 reason, a saved-state error, a native rejection's
/// detail); `description` is the plain rendering, `callbacks[2].input[0].value must be a string,
/// got integer`.
public struct JSONReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What the reader wanted at `path`.
    public enum Expectation: Hashable, Sendable {
        /// Any value at all, `null` included.
        case value
        case string, number, integer, boolean, array, object
        /// A string of base64url (unpadded) text.
        case base64URL
        /// A number of Unix seconds within `TimeBounds`.
        case time
        /// A whole number of seconds within `TimeBounds`.
        case seconds

        /// The expectation as a phrase: "a string", "an integer".
        public var phrase: String {
            switch self {
            case .value: return "a value"
            case .string: return "a string"
            case .number: return "a number"
            case .integer: return "an integer"
            case .boolean: return "a boolean"
            case .array: return "an array"
            case .object: return "an object"
            case .base64URL: return "base64url"
            case .time: return "a time (\(TimeBounds.description))"
            case .seconds: return "a number of seconds from 0 to \(Int64(TimeBounds.latest))"
            }
        }
    }

    /// What was there instead.
    public enum Found: Equatable, Sendable {
        /// No such member (or no such argument).
        case missing
        /// A value of another kind (`null` is a kind of its own).
        case kind(JSONValue.Kind)
        /// A value of the right kind that is not what was wanted: out of range, not base64url.
        case value(JSONValue)

        /// The kind of what was there; nil when nothing was.
        public var kind: JSONValue.Kind? {
            switch self {
            case .missing: return nil
            case .kind(let kind): return kind
            case .value(let value): return value.kind
            }
        }
    }

    public let path: JSONPath
    public let expected: Expectation
    public let found: Found
    /// The read would also have taken `null` (or no member): an optional read.
    public let nullAllowed: Bool

    public init(path: JSONPath, expected: Expectation, found: Found, nullAllowed: Bool = false) {
        self.path = path
        self.expected = expected
        self.found = found
        self.nullAllowed = nullAllowed
    }

    public var description: String {
        switch found {
        case .missing: return "missing \(path) (\(expected.phrase))"
        case .kind(let kind): return "\(path) must be \(expected.phrase), got \(kind.rawValue)"
        // A number out of range is shown; other values are not (a string may be a secret).
        case .value(.int(let number)): return "\(path) must be \(expected.phrase), got \(number)"
        case .value(.double(let number)): return "\(path) must be \(expected.phrase), got \(number)"
        case .value: return "\(path) is not \(expected.phrase)"
        }
    }
}

/// An error type a `JSONReader` can throw directly: it is built from the read error's fields.
public protocol JSONReadFailure: Error {
    init(_ error: JSONReadError)
}

extension JSONReadError: JSONReadFailure {
    public init(_ error: JSONReadError) { self = error }
}
