import AuthBridgeCore
import JSONRPC

/// Named params of a daemon or emulator method: an object, or nothing, read through Core's
/// `JSONReader`; a wrong member is −32602 with the read error's wording and the member as `param`.
struct NamedParams {
    private let reader: JSONReader<JSONReadError>

    init(_ call: RPCCall) throws(JSONRPCError) {
        switch call.params {
        case nil: reader = JSONReader(object: [:])
        case .object(let object)?: reader = JSONReader(object: object)
        case let other?: throw .invalidParams("\(call.method) takes named params (an object), got \(other.typeName)")
        }
    }

    func string(_ key: String) throws(JSONRPCError) -> String {
        try read(key) { field throws(JSONReadError) in try field.string() }
    }

    func optionalString(_ key: String) throws(JSONRPCError) -> String? {
        try read(key) { field throws(JSONReadError) in try field.optionalString() }
    }

    func optionalInt(_ key: String) throws(JSONRPCError) -> Int64? {
        try read(key) { field throws(JSONReadError) in try field.optionalInt() }
    }

    func optionalObject(_ key: String) throws(JSONRPCError) -> JSONObject? {
        try read(key) { field throws(JSONReadError) in try field.optionalObject() }
    }

    func optionalBool(_ key: String) throws(JSONRPCError) -> Bool? {
        try read(key) { field throws(JSONReadError) in try field.optionalBool() }
    }

    func number(_ key: String) throws(JSONRPCError) -> Double {
        let number = try read(key) { field throws(JSONReadError) in try field.double() }
        guard number.isFinite else { throw .invalidParams("\(key) must be a finite number", param: key) }
        return number
    }

    func strings(_ key: String) throws(JSONRPCError) -> [String] {
        try read(key) { field throws(JSONReadError) in try field.strings() }
    }

    func object(_ key: String) throws(JSONRPCError) -> JSONObject {
        try read(key) { field throws(JSONReadError) in try field.object() }
    }

    private func read<T>(
        _ key: String, _ body: (JSONField<JSONReadError>) throws(JSONReadError) -> T
    ) throws(JSONRPCError) -> T {
        do {
            return try body(reader[key])
        } catch {
            throw .invalidParams(error.description, param: key)
        }
    }
}
