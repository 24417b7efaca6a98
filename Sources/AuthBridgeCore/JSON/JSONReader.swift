/// One value of a JSON document and where it sits, read as the type a caller wants. A wrong
/// value throws `Failure` built from a `JSONReadError` naming the path
/// (`callbacks[2].input[0].value must be a string, got integer`); nothing here writes a sentence
/// another layer has to parse. `value` is nil when the member or argument is missing.
///
/// Required reads refuse a missing value and `null`; `optional…` reads take either as nil.
/// Integers accept a double without a fractional part, as `JSONValue.intValue` does.
public struct JSONField<Failure: JSONReadFailure> {
    public let value: JSONValue?
    public let location: JSONPath

    public init(_ value: JSONValue?, at location: JSONPath = JSONPath()) {
        self.value = value
        self.location = location
    }

    /// The value unless it is missing or `null`.
    public var present: JSONValue? { value == .null ? nil : value }

    public func string() throws(Failure) -> String { try required(.string, \.stringValue) }
    public func optionalString() throws(Failure) -> String? { try optional(.string, \.stringValue) }

    public func int() throws(Failure) -> Int64 { try required(.integer, \.intValue) }
    public func optionalInt() throws(Failure) -> Int64? { try optional(.integer, \.intValue) }

    public func double() throws(Failure) -> Double { try required(.number, \.doubleValue) }
    public func optionalDouble() throws(Failure) -> Double? { try optional(.number, \.doubleValue) }

    public func bool() throws(Failure) -> Bool { try required(.boolean, \.boolValue) }
    public func optionalBool() throws(Failure) -> Bool? { try optional(.boolean, \.boolValue) }

    public func array() throws(Failure) -> [JSONValue] { try required(.array, \.arrayValue) }
    public func optionalArray() throws(Failure) -> [JSONValue]? { try optional(.array, \.arrayValue) }

    public func object() throws(Failure) -> JSONObject { try required(.object, \.objectValue) }
    public func optionalObject() throws(Failure) -> JSONObject? { try optional(.object, \.objectValue) }

    /// A point in time: a number within `TimeBounds`.
    public func time() throws(Failure) -> Double {
        let seconds = try double()
        guard TimeBounds.contains(seconds) else { throw fail(.time, .value(.double(seconds))) }
        return seconds
    }

    /// A point in time, or nil for a missing value or `null`.
    public func optionalTime() throws(Failure) -> Double? {
        guard let seconds = try optionalDouble() else { return nil }
        guard TimeBounds.contains(seconds) else { throw fail(.time, .value(.double(seconds)), nullAllowed: true) }
        return seconds
    }

    /// A length of time in whole seconds, within `TimeBounds`.
    public func seconds() throws(Failure) -> Int64 {
        let seconds = try int()
        guard TimeBounds.contains(Double(seconds)) else { throw fail(.seconds, .value(.int(seconds))) }
        return seconds
    }

    /// Bytes written as base64url text.
    public func bytes() throws(Failure) -> [UInt8] {
        let text = try string()
        guard let bytes = Base64URL.decode(text) else { throw fail(.base64URL, .value(.string(text))) }
        return bytes
    }

    /// An array's elements, each named by its index.
    public func elements() throws(Failure) -> [JSONField] { Self.elements(of: try array(), at: location) }

    public func optionalElements() throws(Failure) -> [JSONField]? {
        try optionalArray().map { Self.elements(of: $0, at: location) }
    }

    public func strings() throws(Failure) -> [String] {
        var out: [String] = []
        for element in try elements() { out.append(try element.string()) }
        return out
    }

    /// An object, read member by member.
    public func reader() throws(Failure) -> JSONReader<Failure> {
        JSONReader(object: try object(), at: location)
    }

    public func optionalReader() throws(Failure) -> JSONReader<Failure>? {
        try optionalObject().map { JSONReader(object: $0, at: location) }
    }

    /// An array of objects, each read member by member.
    public func readers() throws(Failure) -> [JSONReader<Failure>] {
        var out: [JSONReader<Failure>] = []
        for element in try elements() { out.append(try element.reader()) }
        return out
    }

    public func optionalReaders() throws(Failure) -> [JSONReader<Failure>]? {
        guard present != nil else { return nil }
        return try readers()
    }

    // Reads that never fail, for parsers that mirror a native SDK's casts (`config["x"] as? String`,
    // `optString`): a value of another type reads as absent, and the SDK then uses its default
    // or rejects with its own text.

    public var asString: String? { value?.stringValue }
    public var asBool: Bool? { value?.boolValue }
    public var asNumber: Double? { value?.doubleValue }
    public var asObject: JSONObject? { value?.objectValue }
    /// The strings of an array, other elements skipped; nil when it is not an array.
    public var asStrings: [String]? { value?.arrayValue?.compactMap(\.stringValue) }

    /// The failure for this value, for checks a caller makes after a read (a range, a format).
    public func fail(
        _ expected: JSONReadError.Expectation, _ found: JSONReadError.Found, nullAllowed: Bool = false
    ) -> Failure {
        Failure(JSONReadError(path: location, expected: expected, found: found, nullAllowed: nullAllowed))
    }

    private static func elements(of list: [JSONValue], at location: JSONPath) -> [JSONField] {
        list.enumerated().map { JSONField($0.element, at: location.appending(index: $0.offset)) }
    }

    private func required<T>(_ expected: JSONReadError.Expectation, _ extract: (JSONValue) -> T?) throws(Failure) -> T {
        guard let value else { throw fail(expected, .missing) }
        guard let result = extract(value) else { throw fail(expected, .kind(value.kind)) }
        return result
    }

    private func optional<T>(_ expected: JSONReadError.Expectation, _ extract: (JSONValue) -> T?) throws(Failure) -> T?
    {
        guard let value = present else { return nil }
        guard let result = extract(value) else { throw fail(expected, .kind(value.kind), nullAllowed: true) }
        return result
    }
}

/// A JSON object and where it sits, read member by member: `reader.string("username")` is
/// `reader["username"].string()`. Saved state (`StateReader`), a step payload, a config object
/// and a method's arguments are all read with it, each caller choosing its `Failure`.
public struct JSONReader<Failure: JSONReadFailure> {
    public let location: JSONPath
    public let object: JSONObject

    /// Refuses a value that is not an object.
    public init(_ value: JSONValue, at location: JSONPath = JSONPath()) throws(Failure) {
        self.init(object: try JSONField<Failure>(value, at: location).object(), at: location)
    }

    /// `path` is the object's own name or dotted path ("server.users.demo"; "" for the document).
    public init(_ value: JSONValue, path: String) throws(Failure) {
        try self.init(value, at: JSONPath(path))
    }

    public init(object: JSONObject, at location: JSONPath = JSONPath()) {
        self.object = object
        self.location = location
    }

    /// The object's path as text, for errors a caller words itself.
    public var path: String { location.description }

    public subscript(key: String) -> JSONField<Failure> { JSONField(object[key], at: location.appending(key)) }

    /// A member that must be there (any value, `null` included).
    public func value(_ key: String) throws(Failure) -> JSONValue {
        guard let value = object[key] else { throw self[key].fail(.value, .missing) }
        return value
    }

    /// The member is there and not `null`.
    public func has(_ key: String) -> Bool { self[key].present != nil }

    public func string(_ key: String) throws(Failure) -> String { try self[key].string() }
    public func optionalString(_ key: String) throws(Failure) -> String? { try self[key].optionalString() }
    public func int(_ key: String) throws(Failure) -> Int64 { try self[key].int() }
    public func optionalInt(_ key: String) throws(Failure) -> Int64? { try self[key].optionalInt() }
    public func double(_ key: String) throws(Failure) -> Double { try self[key].double() }
    public func bool(_ key: String) throws(Failure) -> Bool { try self[key].bool() }
    public func time(_ key: String) throws(Failure) -> Double { try self[key].time() }
    public func seconds(_ key: String) throws(Failure) -> Int64 { try self[key].seconds() }
    public func bytes(_ key: String) throws(Failure) -> [UInt8] { try self[key].bytes() }
    public func strings(_ key: String) throws(Failure) -> [String] { try self[key].strings() }
    public func array(_ key: String) throws(Failure) -> [JSONValue] { try self[key].array() }
    public func objectValue(_ key: String) throws(Failure) -> JSONObject { try self[key].object() }
    public func reader(_ key: String) throws(Failure) -> JSONReader { try self[key].reader() }
    /// Each element of an array member, as a reader named by its index.
    public func readers(_ key: String) throws(Failure) -> [JSONReader] { try self[key].readers() }
}
