import AuthBridgeCore
import NativeSDK

/// A native method's positional arguments, checked as the module's spec declares them (React
/// Native passes exactly the declared arguments; a TurboModule spec says which may be left out).
/// A wrong call is −32602 naming the argument, never a native rejection: the count, or the path
/// of what is wrong inside one (`config must be an object, got string`), with `param` its position.
enum Arguments {
    /// `names` are the declared arguments; the last `optional` of them may be left out.
    static func count(_ method: String, _ args: [JSONValue], _ names: [String], optional: Int = 0) throws(BridgeError) {
        let range = (names.count - optional)...names.count
        guard range.contains(args.count) else {
            let expected: String
            switch (range.lowerBound, range.upperBound) {
            case (0, 0): expected = "no arguments"
            case (1, 1): expected = "1 argument (\(names[0]))"
            case (let low, let high) where low == high:
                expected = "\(high) arguments (\(names.joined(separator: ", ")))"
            case (let low, let high): expected = "\(low) to \(high) arguments (\(names.joined(separator: ", ")))"
            }
            throw .invalidParams(reason: "\(method) takes \(expected), got \(args.count)", param: nil)
        }
    }

    static func none(_ method: String, _ args: [JSONValue]) throws(BridgeError) {
        try count(method, args, [])
    }

    /// A method of one string argument.
    static func string(_ method: String, _ args: [JSONValue], name: String) throws(BridgeError) -> String {
        try count(method, args, [name])
        return try string(args, 0, name)
    }

    static func string(_ args: [JSONValue], _ position: Int, _ name: String) throws(BridgeError) -> String {
        try read(args, position, name) { argument throws(JSONReadError) in try argument.string() }
    }

    static func object(_ args: [JSONValue], _ position: Int, _ name: String) throws(BridgeError) -> JSONObject {
        try read(args, position, name) { argument throws(JSONReadError) in try argument.object() }
    }

    /// An object argument, read member by member under its name (`config.scopes`).
    static func reader(
        _ args: [JSONValue], _ position: Int, _ name: String
    ) throws(BridgeError) -> JSONReader<JSONReadError> {
        try read(args, position, name) { argument throws(JSONReadError) in try argument.reader() }
    }

    static func bool(_ args: [JSONValue], _ position: Int, _ name: String) throws(BridgeError) -> Bool {
        try read(args, position, name) { argument throws(JSONReadError) in try argument.bool() }
    }

    /// The id a synchronous create or register call answers: the one the host passed as an
    /// extra argument at `position` (a fresh, non-empty string), else a new registry id.
    static func chosenId(
        _ args: [JSONValue], position: Int, sdk: PingSDK, taken: (String) -> Bool
    ) throws(BridgeError) -> String {
        guard args.count > position else { return sdk.newId() }
        let id = try string(args, position, "the host-chosen id")
        guard !id.isEmpty, !taken(id) else {
            throw .invalidParams(
                reason: "the host-chosen id must be a new, non-empty string, got \"\(id)\"", param: String(position))
        }
        return id
    }

    /// Reads the argument at `position` under its declared name, so a path inside it reads
    /// `config.scopes[1]`.
    private static func read<T>(
        _ args: [JSONValue], _ position: Int, _ name: String,
        _ body: (JSONField<JSONReadError>) throws(JSONReadError) -> T
    ) throws(BridgeError) -> T {
        do {
            return try body(JSONField(position < args.count ? args[position] : nil, at: JSONPath(name)))
        } catch {
            throw .invalidParams(error, param: String(position))
        }
    }
}
