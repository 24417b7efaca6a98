import AuthBridgeCore
import IdentityServer

/// A failure asked for on purpose (`emulator.fault`): which requests it hits, how they fail, and
/// for how many. A value: the admin API and `emulator.*` read one from the same JSON (`parse`).
public struct FaultSpec: Equatable, Sendable {
    /// Which requests a fault hits.
    public enum Target: Equatable, Sendable {
        /// A call of the identity server, from any caller: the SDK behind the bridges and the Ping
        /// modules, the emulated phones, the HTTP face's routes.
        case operation(IdentityOperation)
        /// A request to the PingOne server, from RNPingDavinci or the HTTP face (`pingOneAuthorize`…).
        case pingOne(PingOneOperation)
        /// A request to one of AM's REST endpoints on the HTTP face, before it is answered.
        case route(AMEndpoint)
        /// A request on the HTTP face whose path starts with this prefix.
        case path(String)
    }

    /// How a hit request fails.
    public enum Kind: Equatable, Sendable {
        /// Answered with this status and AM's JSON error body (`AMErrors.status`).
        case status(Int, message: String?)
        /// Answered normally, `seconds` late.
        case latency(seconds: Double)
        /// The connection closes with no answer.
        case drop
        /// No answer for `seconds`, then the connection closes (the client's own timeout may come first).
        case timeout(seconds: Double)
    }

    public var target: Target
    public var kind: Kind
    /// How many requests it hits; nil: every one until it is cleared.
    public var count: Int?

    public init(target: Target, kind: Kind, count: Int? = 1) {
        self.target = target
        self.kind = kind
        self.count = count
    }

    /// The longest wait a fault may add: a test that needs longer wants a clock, not a fault.
    public static let maxSeconds: Double = 60
    /// A timeout's wait when the spec gives none.
    public static let defaultTimeoutSeconds: Double = 10

    /// The kinds by their JSON names.
    public static let kindNames = ["status", "latency", "drop", "timeout"]

    /// Reads a spec from its JSON: exactly one of `operation`, `route`, `path`; `kind`; the kind's
    /// `status` (400–599, default 500) and `message`, or `seconds`; `count` (default 1) or
    /// `untilCleared: true`. A wrong member is refused, named, listing what it may be.
    public static func parse(_ object: JSONObject) throws(EmulatorError) -> FaultSpec {
        let known: Set<String> = [
            "operation", "route", "path", "kind", "status", "message", "seconds", "count", "untilCleared",
        ]
        if let unknown = object.keys.first(where: { !known.contains($0) }) {
            throw EmulatorError(
                param: unknown,
                reason: "\(unknown) is not a member of a fault (members: \(known.sorted().joined(separator: ", ")))")
        }
        let reader = JSONReader<JSONReadError>(object: object)
        func read<T>(_ key: String, _ body: () throws(JSONReadError) -> T) throws(EmulatorError) -> T {
            do { return try body() } catch { throw EmulatorError(param: key, reason: error.description) }
        }
        let target = try readTarget(
            operation: try read("operation") { () throws(JSONReadError) in try reader.optionalString("operation") },
            route: try read("route") { () throws(JSONReadError) in try reader.optionalString("route") },
            path: try read("path") { () throws(JSONReadError) in try reader.optionalString("path") })
        let kindName = try read("kind") { () throws(JSONReadError) in try reader.string("kind") }
        let status = try read("status") { () throws(JSONReadError) in try reader.optionalInt("status") }
        let message = try read("message") { () throws(JSONReadError) in try reader.optionalString("message") }
        let seconds = try read("seconds") { () throws(JSONReadError) in try reader["seconds"].optionalDouble() }
        let count = try read("count") { () throws(JSONReadError) in try reader.optionalInt("count") }
        let untilCleared = try read("untilCleared") { () throws(JSONReadError) in
            try reader["untilCleared"].optionalBool()
        }
        let kind: Kind
        switch kindName {
        case "status":
            let code = status ?? 500
            guard (400...599).contains(code) else {
                throw EmulatorError(
                    param: "status", reason: "status must be an HTTP error status from 400 to 599, got \(code)")
            }
            kind = .status(Int(code), message: message)
        case "latency":
            guard let seconds else { throw EmulatorError(param: "seconds", reason: "a latency fault needs seconds") }
            kind = .latency(seconds: try checked(seconds))
        case "drop": kind = .drop
        case "timeout": kind = .timeout(seconds: try checked(seconds ?? defaultTimeoutSeconds))
        default:
            throw EmulatorError(
                param: "kind", reason: "kind must be one of \(kindNames.joined(separator: ", ")), got \(kindName)")
        }
        if kindName != "status", status != nil || message != nil {
            throw EmulatorError(
                param: status != nil ? "status" : "message", reason: "status and message belong to a status fault")
        }
        if kindName == "status" || kindName == "drop", seconds != nil {
            throw EmulatorError(param: "seconds", reason: "seconds belong to a latency or timeout fault")
        }
        switch (count, untilCleared) {
        case (_?, true?): throw EmulatorError(param: "count", reason: "give count or untilCleared, not both")
        case (let count?, _) where count < 1 || count > 1_000_000:
            throw EmulatorError(param: "count", reason: "count must be from 1 to 1000000, got \(count)")
        case (let count?, _): return FaultSpec(target: target, kind: kind, count: Int(count))
        case (nil, true?): return FaultSpec(target: target, kind: kind, count: nil)
        case (nil, _): return FaultSpec(target: target, kind: kind, count: 1)
        }
    }

    private static func readTarget(operation: String?, route: String?, path: String?) throws(EmulatorError) -> Target {
        switch (operation, route, path) {
        case (let name?, nil, nil):
            if let operation = IdentityOperation(rawValue: name) { return .operation(operation) }
            if let operation = PingOneOperation(rawValue: name) { return .pingOne(operation) }
            let names = IdentityOperation.allCases.map(\.rawValue) + PingOneOperation.allCases.map(\.rawValue)
            throw EmulatorError(
                param: "operation", reason: "no operation \(name) (operations: \(names.joined(separator: ", ")))")
        case (nil, let name?, nil):
            guard let route = AMEndpoint(rawValue: name) else {
                throw EmulatorError(
                    param: "route",
                    reason: "no route \(name) (routes: \(AMEndpoint.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .route(route)
        case (nil, nil, let prefix?):
            guard prefix.hasPrefix("/"), prefix.utf8.count <= 2048 else {
                throw EmulatorError(param: "path", reason: "path must be a path prefix starting with /, as /am/json/")
            }
            return .path(prefix)
        default:
            throw EmulatorError(
                param: "operation",
                reason: "name exactly one of operation, route (the HTTP face) or path (a path prefix)")
        }
    }

    private static func checked(_ seconds: Double) throws(EmulatorError) -> Double {
        guard seconds.isFinite, seconds >= 0, seconds <= maxSeconds else {
            throw EmulatorError(param: "seconds", reason: "seconds must be from 0 to \(Int(maxSeconds))")
        }
        return seconds
    }
}

/// A fault in the plan: its spec, its id, and how many hits it has left.
public struct Fault: Equatable, Sendable {
    /// `fault-1`, `fault-2`…, in the order they were set (no randomness: the same with or without `--seed`).
    public let id: String
    public let spec: FaultSpec
    /// Hits left; nil: until cleared.
    public internal(set) var remaining: Int?
    /// Requests it has failed so far.
    public internal(set) var hits: Int = 0

    /// As `emulator.faults` lists it: the spec's members, then `id`, `remaining`, `hits`.
    public var json: JSONValue {
        var object: JSONObject = ["id": .string(id)]
        switch spec.target {
        case .operation(let operation): object["operation"] = .string(operation.rawValue)
        case .pingOne(let operation): object["operation"] = .string(operation.rawValue)
        case .route(let route): object["route"] = .string(route.rawValue)
        case .path(let prefix): object["path"] = .string(prefix)
        }
        switch spec.kind {
        case .status(let status, let message):
            object["kind"] = "status"
            object["status"] = .int(Int64(status))
            if let message { object["message"] = .string(message) }
        case .latency(let seconds):
            object["kind"] = "latency"
            object["seconds"] = .double(seconds)
        case .drop: object["kind"] = "drop"
        case .timeout(let seconds):
            object["kind"] = "timeout"
            object["seconds"] = .double(seconds)
        }
        object["remaining"] = remaining.map { .int(Int64($0)) } ?? .null
        object["untilCleared"] = .bool(remaining == nil)
        object["hits"] = .int(Int64(hits))
        return .object(object)
    }
}
