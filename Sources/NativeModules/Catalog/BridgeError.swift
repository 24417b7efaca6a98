import AuthBridgeCore

/// How a bridge method fails: the JS side called it wrongly (bad arguments), or the native
/// module rejected the promise with a code and a message.
public enum BridgeError: Error, Equatable, Sendable {
    /// `param` is the position of the offending argument ("0"), nil for the argument count;
    /// `mismatch`, when the argument was of the wrong JSON type, says which and which it had to be.
    case invalidParams(reason: String, param: String?, mismatch: TypeMismatch? = nil)
    /// RN `reject(code, message)`. `detail` says more than the native message does, for people.
    case rejection(code: String, message: String, detail: String?)
    /// A rejection that also carries RN's `userInfo` (the Ping modules' `{type, error, message,
    /// code?, status?}`), which the successor SDK's JS reads for `PingError.type`.
    case typedRejection(code: String, message: String, userInfo: JSONValue)
    /// A method the module declares to JS but never implements (the guide's `register`): a
    /// device crashes; the reason says so and what to use instead.
    case notImplemented(String)

    /// An argument of the wrong JSON type, in `JSONValue.typeName`'s words ("string", "object").
    public struct TypeMismatch: Equatable, Sendable {
        public let expected: String
        public let got: String

        public init(expected: String, got: String) {
            self.expected = expected
            self.got = got
        }
    }

    /// An argument that had to be a string and was not.
    static func notAString(_ name: String, _ value: JSONValue, param: String) -> BridgeError {
        .invalidParams(
            reason: "\(name) must be a string, got \(value.typeName)", param: param,
            mismatch: TypeMismatch(expected: "string", got: value.typeName))
    }

    static func reject(_ code: String, _ message: String, detail: String? = nil) -> BridgeError {
        .rejection(code: code, message: message, detail: detail)
    }
}
