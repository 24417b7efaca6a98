import AuthBridgeCore

/// A JSON-RPC 2.0 error object. Codes (protocol/README.md): the spec's five, and the application
/// range −32000…−32099, which is only ever added to, never renumbered.
public struct JSONRPCError: Error, Equatable, Sendable {
    public var code: Int
    public var message: String
    public var data: JSONValue?

    public init(code: Int, message: String, data: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static let parseErrorCode = -32700
    public static let invalidRequestCode = -32600
    public static let methodNotFoundCode = -32601
    public static let invalidParamsCode = -32602
    public static let internalErrorCode = -32603
    /// A native promise rejection: `message` is the native message, `data.code` the native code.
    public static let nativeRejectionCode = -32000

    public static func parseError(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: parseErrorCode, message: "Parse error: \(detail)")
    }

    public static func invalidRequest(_ detail: String, data: JSONValue? = nil) -> JSONRPCError {
        JSONRPCError(code: invalidRequestCode, message: "Invalid Request: \(detail)", data: data)
    }

    public static func methodNotFound(_ method: String, data: JSONValue? = nil) -> JSONRPCError {
        JSONRPCError(code: methodNotFoundCode, message: "Method not found: \(method)", data: data)
    }

    /// `param` names the offending parameter (a position like "0" or a key), `reason` says why.
    public static func invalidParams(_ reason: String, param: String? = nil) -> JSONRPCError {
        var data: JSONObject = ["reason": .string(reason)]
        if let param { data["param"] = .string(param) }
        return JSONRPCError(code: invalidParamsCode, message: "Invalid params: \(reason)", data: .object(data))
    }

    public static func internalError(_ detail: String) -> JSONRPCError {
        JSONRPCError(code: internalErrorCode, message: "Internal error", data: ["detail": .string(detail)])
    }

    /// What RN's `reject(code, message)` or Flutter's `FlutterError(code:message:)` becomes.
    public static func nativeRejection(code: String, message: String, detail: String? = nil) -> JSONRPCError {
        var data: JSONObject = ["code": .string(code)]
        if let detail { data["detail"] = .string(detail) }
        return JSONRPCError(code: nativeRejectionCode, message: message, data: .object(data))
    }

    var json: JSONValue {
        var object: JSONObject = ["code": .int(Int64(code)), "message": .string(message)]
        if let data { object["data"] = data }
        return .object(object)
    }
}
