/// Why saved state could not be read back: `path` names the member ("server.users[2].username").
public struct StateError: Error, Equatable, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }
}

/// Reads one object of saved state (`--state-dir`) with errors that name the member at fault,
/// so a corrupt file is reported precisely instead of being silently replaced.
public struct StateReader {
    public let path: String
    private let object: JSONObject

    public init(_ value: JSONValue, path: String) throws(StateError) {
        guard case .object(let object) = value else { throw StateError("\(path): expected an object, found \(value.typeName)") }
        self.object = object
        self.path = path
    }

    private func member(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    public func value(_ key: String) throws(StateError) -> JSONValue {
        guard let value = object[key] else { throw StateError("\(member(key)): missing") }
        return value
    }

    public func has(_ key: String) -> Bool { object[key] != nil && object[key] != .null }

    public func string(_ key: String) throws(StateError) -> String {
        guard case .string(let s) = try value(key) else { throw mismatch(key, "a string") }
        return s
    }

    public func optionalString(_ key: String) throws(StateError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        default: throw mismatch(key, "a string or null")
        }
    }

    public func double(_ key: String) throws(StateError) -> Double {
        guard let d = try value(key).doubleValue else { throw mismatch(key, "a number") }
        return d
    }

    /// A point in time: a number within `TimeBounds`.
    public func time(_ key: String) throws(StateError) -> Double {
        let seconds = try double(key)
        guard TimeBounds.contains(seconds) else { throw StateError("\(member(key)): \(seconds) is not a time (\(TimeBounds.description))") }
        return seconds
    }

    /// A length of time in whole seconds, within `TimeBounds`.
    public func seconds(_ key: String) throws(StateError) -> Int64 {
        let seconds = try int(key)
        guard TimeBounds.contains(Double(seconds)) else {
            throw StateError("\(member(key)): \(seconds) is not a number of seconds from 0 to \(Int64(TimeBounds.latest))")
        }
        return seconds
    }

    public func int(_ key: String) throws(StateError) -> Int64 {
        guard let i = try value(key).intValue else { throw mismatch(key, "an integer") }
        return i
    }

    public func bytes(_ key: String) throws(StateError) -> [UInt8] {
        guard let bytes = Base64URL.decode(try string(key)) else { throw mismatch(key, "base64url") }
        return bytes
    }

    public func strings(_ key: String) throws(StateError) -> [String] {
        var out: [String] = []
        for (index, element) in try array(key).enumerated() {
            guard case .string(let s) = element else { throw StateError("\(member(key))[\(index)]: expected a string") }
            out.append(s)
        }
        return out
    }

    public func array(_ key: String) throws(StateError) -> [JSONValue] {
        guard case .array(let list) = try value(key) else { throw mismatch(key, "an array") }
        return list
    }

    public func objectValue(_ key: String) throws(StateError) -> JSONObject {
        guard case .object(let o) = try value(key) else { throw mismatch(key, "an object") }
        return o
    }

    public func reader(_ key: String) throws(StateError) -> StateReader {
        try StateReader(try value(key), path: member(key))
    }

    /// Each element of an array member, as a reader named by its index.
    public func readers(_ key: String) throws(StateError) -> [StateReader] {
        var out: [StateReader] = []
        for (index, element) in try array(key).enumerated() {
            out.append(try StateReader(element, path: "\(member(key))[\(index)]"))
        }
        return out
    }

    private func mismatch(_ key: String, _ expected: String) -> StateError {
        StateError("\(member(key)): expected \(expected), found \(object[key]?.typeName ?? "nothing")")
    }
}
