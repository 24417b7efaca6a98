import AuthBridgeCore

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
            throw .notAString(name, args[0], param: "0")
        }
        return value
    }
}
