import AuthBridgeCore

/// What went wrong in one node or callback of a journey file; `JourneyDefinition` adds the
/// journey's and node's names.
struct SettingsError: Error {
    var reason: String
}

extension SettingsError: JSONReadFailure {
    /// A journey file's wording of a read error: the setting quoted, as the file spells it.
    init(_ error: JSONReadError) {
        let key = "\"\(error.path)\""
        switch (error.expected, error.found) {
        case (let expected, .missing): reason = "\(key) is required (\(expected.phrase))"
        case (.boolean, _): reason = "\(key) must be true or false, got \(error.found.kind?.rawValue ?? "nothing")"
        case (let expected, let found):
            reason = "\(key) must be \(expected.phrase), got \(found.kind?.rawValue ?? "nothing")"
        }
    }
}

/// Typed reads of a node's or callback's settings, through Core's `JSONReader`. Every read says
/// which key was wrong and what it should have been, and `finish()` rejects keys nothing read, so
/// a typo in a journey file stops the start instead of being silently ignored.
struct Settings {
    private let reader: JSONReader<SettingsError>
    private var read: Set<String> = ["type"]

    init(_ value: JSONValue, what: String) throws(SettingsError) {
        guard case .object(let object) = value else {
            throw SettingsError(reason: "\(what) must be a JSON object, got \(value.typeName)")
        }
        reader = JSONReader(object: object)
    }

    /// Keys starting with `_` or `$` are comments and schema links, never settings.
    func finish() throws(SettingsError) {
        for key in reader.object.keys where !read.contains(key) && !key.hasPrefix("_") && !key.hasPrefix("$") {
            throw SettingsError(reason: "unknown setting \"\(key)\"")
        }
    }

    /// The setting, marked as read; nil when absent or null.
    private mutating func field(_ key: String) -> JSONField<SettingsError> {
        read.insert(key)
        return reader[key]
    }

    mutating func raw(_ key: String) -> JSONValue? { field(key).present }

    mutating func string(_ key: String) throws(SettingsError) -> String? { try field(key).optionalString() }

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
        guard let s = try string(key), !s.isEmpty else {
            throw SettingsError(reason: "\"\(key)\" is required (a non-empty string)")
        }
        return s
    }

    mutating func bool(_ key: String, default fallback: Bool) throws(SettingsError) -> Bool {
        try field(key).optionalBool() ?? fallback
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

    mutating func object(_ key: String) throws(SettingsError) -> JSONObject? { try field(key).optionalObject() }

    mutating func array(_ key: String) throws(SettingsError) -> [JSONValue]? { try field(key).optionalArray() }
}
