import AuthBridgeCore

/// A request id: JSON-RPC allows strings and numbers; this daemon accepts strings and integers
/// (a fractional id cannot be echoed back reliably) and echoes them verbatim.
public enum RequestID: Equatable, Hashable, Sendable {
    case string(String)
    case int(Int64)

    public var json: JSONValue {
        switch self {
        case .string(let s): return .string(s)
        case .int(let i): return .int(i)
        }
    }
}

/// An incoming message after envelope validation.
public struct JSONRPCMessage: Equatable, Sendable {
    /// nil for a notification.
    public var id: RequestID?
    public var method: String
    /// An array (positional) or an object (named); nil when absent.
    public var params: JSONValue?

    public var isNotification: Bool { id == nil }

    /// Validates the envelope of one JSON value (not a batch). On failure the error carries the
    /// id when it could be read, else nil (answered with `id: null`).
    public static func validate(_ value: JSONValue) -> Result<JSONRPCMessage, EnvelopeError> {
        guard case .object(let object) = value else {
            return .failure(
                EnvelopeError(id: nil, error: .invalidRequest("expected a request object, got \(value.typeName)")))
        }
        var id: RequestID?
        switch object["id"] {
        case nil: id = nil
        case .string(let s)?: id = .string(s)
        case .int(let i)?: id = .int(i)
        case let other?:
            let what = other.typeName == "number" ? "a fractional number" : other.typeName
            return .failure(
                EnvelopeError(id: nil, error: .invalidRequest("id must be a string or an integer, got \(what)")))
        }
        guard object["jsonrpc"] == .string("2.0") else {
            let detail = object["jsonrpc"] == nil ? "missing \"jsonrpc\": \"2.0\"" : "\"jsonrpc\" must be \"2.0\""
            return .failure(EnvelopeError(id: id, error: .invalidRequest(detail)))
        }
        guard case .string(let method)? = object["method"] else {
            let detail = object["method"] == nil ? "missing \"method\"" : "\"method\" must be a string"
            return .failure(EnvelopeError(id: id, error: .invalidRequest(detail)))
        }
        let params = object["params"]
        switch params {
        case nil, .array?, .object?: break
        case let other?:
            return .failure(
                EnvelopeError(
                    id: id, error: .invalidRequest("params must be an array or an object, got \(other.typeName)")))
        }
        return .success(JSONRPCMessage(id: id, method: method, params: params))
    }

    public struct EnvelopeError: Error, Equatable, Sendable {
        public var id: RequestID?
        public var error: JSONRPCError
    }
}

/// Builders for what the daemon writes.
public enum JSONRPCOutgoing {
    public static func response(id: RequestID?, result: JSONValue) -> JSONValue {
        .object(["jsonrpc": "2.0", "id": id?.json ?? .null, "result": result])
    }

    public static func error(id: RequestID?, _ error: JSONRPCError) -> JSONValue {
        .object(["jsonrpc": "2.0", "id": id?.json ?? .null, "error": error.json])
    }

    public static func notification(method: String, params: JSONValue) -> JSONValue {
        .object(["jsonrpc": "2.0", "method": .string(method), "params": params])
    }
}
