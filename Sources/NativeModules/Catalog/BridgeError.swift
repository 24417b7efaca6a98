import AuthBridgeCore

/// How a bridge method fails: the JS side called it wrongly (bad arguments), or the native
/// module rejected the promise with a code and a message.
public enum BridgeError: Error, Equatable, Sendable {
    /// `param` is the position of the offending argument ("0"), nil for the argument count;
    /// `read`, when an argument was read and found wrong, says where, what it had to be and what
    /// it was, as fields (a face adds its hints from them, never from `reason`).
    case invalidParams(reason: String, param: String?, read: JSONReadError? = nil)
    /// RN `reject(code, message)`. `detail` says more than the native message does, for people.
    case rejection(code: String, message: String, detail: String?)
    /// A rejection that also carries RN's `userInfo` (the Ping modules' `{type, error, message,
    /// code?, status?}`), which the successor SDK's JS reads for `PingError.type`.
    case typedRejection(code: String, message: String, userInfo: JSONValue)
    /// A method the module declares to JS but never implements (the guide's `register`): a
    /// device crashes; the reason says so and what to use instead.
    case notImplemented(String)

    /// A wrong argument as −32602: the read error's plain rendering, `param` the argument's
    /// position, the read error itself kept for a face's hints.
    public static func invalidParams(_ error: JSONReadError, param: String) -> BridgeError {
        .invalidParams(reason: error.description, param: param, read: error)
    }

    static func reject(_ code: String, _ message: String, detail: String? = nil) -> BridgeError {
        .rejection(code: code, message: message, detail: detail)
    }
}
