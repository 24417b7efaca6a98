import AuthBridgeCore
import JSONRPC

/// Named params of a daemon or emulator method: an object, or nothing.
struct NamedParams {
    let object: JSONObject

    init(_ call: RPCCall) throws(JSONRPCError) {
        switch call.params {
        case nil: object = [:]
        case .object(let object)?: self.object = object
        case let other?: throw .invalidParams("\(call.method) takes named params (an object), got \(other.typeName)")
        }
    }

    func string(_ key: String) throws(JSONRPCError) -> String {
        guard let value = try optionalString(key) else { throw .invalidParams("missing \(key) (a string)", param: key) }
        return value
    }

    func optionalString(_ key: String) throws(JSONRPCError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw .invalidParams("\(key) must be a string, got \(other.typeName)", param: key)
        }
    }

    func number(_ key: String) throws(JSONRPCError) -> Double {
        switch object[key] {
        case nil: throw .invalidParams("missing \(key) (a number)", param: key)
        case let value?:
            guard let number = value.doubleValue else {
                throw .invalidParams("\(key) must be a number, got \(value.typeName)", param: key)
            }
            guard number.isFinite else { throw .invalidParams("\(key) must be a finite number", param: key) }
            return number
        }
    }
}
