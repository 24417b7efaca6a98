import AuthBridgeCore

/// What went wrong in one node or callback of a journey file; `JourneyDefinition` adds the
/// journey's and node's names.
struct SettingsError: Error {
    var reason: String
}

/// Typed reads of a node's or callback's settings. Every read says which key was wrong and what
/// it should have been, and `finish()` rejects keys nothing read, so a typo in a journey file
/// stops the start instead of being silently ignored.
struct Settings {
    private let object: JSONObject
    private var read: Set<String> = ["type"]

    init(_ value: JSONValue, what: String) throws(SettingsError) {
        guard case .object(let object) = value else { throw SettingsError(reason: "\(what) must be a JSON object, got \(value.typeName)") }
        self.object = object
    }

    /// Keys starting with `_` or `$` are comments and schema links, never settings.
    func finish() throws(SettingsError) {
        for key in object.keys where !read.contains(key) && !key.hasPrefix("_") && !key.hasPrefix("$") {
            throw SettingsError(reason: "unknown setting \"\(key)\"")
        }
    }

    mutating func raw(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let value = object[key], value != .null else { return nil }
        return value
    }

    mutating func string(_ key: String) throws(SettingsError) -> String? {
        guard let value = raw(key) else { return nil }
        guard case .string(let s) = value else { throw SettingsError(reason: "\"\(key)\" must be a string, got \(value.typeName)") }
        return s
    }

    mutating func string(_ key: String, default fallback: String) throws(SettingsError) -> String {
        try string(key) ?? fallback
    }

    /// Where a value is kept: a path of at most `maxPathDepth` parts split on `separator` (`.` in
    /// shared state, `/` in IDM attribute names). Deeper paths would nest the saved state deeper
    /// than `--state-dir` reads back, so they are refused here, when they arrive.
    static let maxPathDepth = 16

    static func checkPath(_ path: String, key: String, separator: Character) throws(SettingsError) {
        let depth = path.split(separator: separator, omittingEmptySubsequences: false).count
        guard depth <= maxPathDepth else {
            throw SettingsError(reason: "\"\(key)\" nests \(depth) levels; at most \(maxPathDepth)")
        }
    }

    mutating func requiredString(_ key: String) throws(SettingsError) -> String {
        guard let s = try string(key), !s.isEmpty else { throw SettingsError(reason: "\"\(key)\" is required (a non-empty string)") }
        return s
    }

    mutating func bool(_ key: String, default fallback: Bool) throws(SettingsError) -> Bool {
        guard let value = raw(key) else { return fallback }
        guard case .bool(let b) = value else { throw SettingsError(reason: "\"\(key)\" must be true or false, got \(value.typeName)") }
        return b
    }

    mutating func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>) throws(SettingsError) -> Int {
        guard let value = raw(key) else { return fallback }
        guard let i = value.intValue, range.contains(Int(i)) else {
            throw SettingsError(reason: "\"\(key)\" must be an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(i)
    }

    mutating func seconds(_ key: String, default fallback: Double?) throws(SettingsError) -> Double? {
        guard let value = raw(key) else { return fallback }
        guard let d = value.doubleValue, d >= 0, d <= 31_536_000 else {
            throw SettingsError(reason: "\"\(key)\" must be a number of seconds from 0 to 31536000")
        }
        return d
    }

    mutating func strings(_ key: String, nonEmpty: Bool) throws(SettingsError) -> [String]? {
        guard let value = raw(key) else { return nil }
        guard case .array(let items) = value, items.allSatisfy({ $0.stringValue != nil }) else {
            throw SettingsError(reason: "\"\(key)\" must be an array of strings")
        }
        if nonEmpty, items.isEmpty { throw SettingsError(reason: "\"\(key)\" must not be empty") }
        return items.compactMap(\.stringValue)
    }

    mutating func object(_ key: String) throws(SettingsError) -> JSONObject? {
        guard let value = raw(key) else { return nil }
        guard case .object(let o) = value else { throw SettingsError(reason: "\"\(key)\" must be an object, got \(value.typeName)") }
        return o
    }

    mutating func array(_ key: String) throws(SettingsError) -> [JSONValue]? {
        guard let value = raw(key) else { return nil }
        guard case .array(let a) = value else { throw SettingsError(reason: "\"\(key)\" must be an array, got \(value.typeName)") }
        return a
    }
}
