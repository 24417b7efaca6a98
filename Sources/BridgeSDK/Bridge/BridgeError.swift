import AuthBridgeCore

/// How a bridge method fails: the JS side called it wrongly (bad arguments), or the native
/// module rejected the promise with a code and a message.
public enum BridgeError: Error, Equatable, Sendable {
    /// `param` is the position of the offending argument ("0"), nil for the argument count.
    case invalidParams(reason: String, param: String?)
    /// RN `reject(code, message)`. `detail` says more than the native message does, for people.
    case rejection(code: String, message: String, detail: String?)

    static func reject(_ code: String, _ message: String, detail: String? = nil) -> BridgeError {
        .rejection(code: code, message: message, detail: detail)
    }
}

/// One native method as the JS side calls it: positional arguments in, the resolved value out.
public struct BridgeMethod {
    public let name: String
    public let call: ([JSONValue]) throws(BridgeError) -> JSONValue

    public init(name: String, call: @escaping ([JSONValue]) throws(BridgeError) -> JSONValue) {
        self.name = name
        self.call = call
    }
}

/// Argument checks shared by every method: React Native passes exactly the declared arguments.
enum Arguments {
    static func none(_ method: String, _ args: [JSONValue]) throws(BridgeError) {
        guard args.isEmpty else {
            throw .invalidParams(reason: "\(method) takes no arguments, got \(args.count)", param: nil)
        }
    }

    static func string(_ method: String, _ args: [JSONValue], name: String) throws(BridgeError) -> String {
        guard args.count == 1 else {
            throw .invalidParams(reason: "\(method) takes 1 argument (\(name)), got \(args.count)", param: nil)
        }
        guard case .string(let value) = args[0] else {
            throw .invalidParams(reason: "\(name) must be a string, got \(args[0].typeName)", param: "0")
        }
        return value
    }
}
