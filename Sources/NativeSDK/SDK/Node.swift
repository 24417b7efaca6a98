import AuthBridgeCore
import IdentityServer

/// One step of a journey as the SDK holds it: AM's step JSON, plus the id the SDK gave the
/// journey (`authServiceId`, a UUID per `FRUser.login`/`register` call).
public struct Node: Equatable, Sendable {
    public var authId: String
    public var authServiceId: String
    public var stage: String?
    public var header: String?
    public var description: String?
    /// AM's callback objects, untouched except for input values the app sets.
    public var callbacks: [JSONValue]

    init?(step body: JSONValue, authServiceId: String) {
        guard case .string(let authId)? = body["authId"], case .array(let callbacks)? = body["callbacks"] else {
            return nil
        }
        self.authId = authId
        self.authServiceId = authServiceId
        stage = body["stage"]?.stringValue
        header = body["header"]?.stringValue
        description = body["description"]?.stringValue
        self.callbacks = callbacks
    }

    /// The type of callback `index`; nil when it has none or one AuthBridge does not know.
    public func callbackType(at index: Int) -> CallbackType? {
        callbacks[index]["type"]?.stringValue.flatMap(CallbackType.init(rawValue:))
    }

    /// What `Node.buildRequestPayload` posts back to `/authenticate`.
    var requestPayload: JSONValue {
        var object: JSONObject = ["authId": .string(authId)]
        if let stage { object["stage"] = .string(stage) }
        if let header { object["header"] = .string(header) }
        if let description { object["description"] = .string(description) }
        object["callbacks"] = .array(callbacks)
        return .object(object)
    }

    /// Sets the value of the named input of callback `index`; false when there is no such input.
    @discardableResult
    public mutating func setInput(
        callback index: Int, inputIndex: Int? = nil, named name: String? = nil, to value: JSONValue
    ) -> Bool {
        guard case .object(var callback) = callbacks[index], case .array(var inputs)? = callback["input"] else {
            return false
        }
        let position: Int?
        if let inputIndex {
            position = inputIndex < inputs.count ? inputIndex : nil
        } else {
            position = inputs.firstIndex { $0["name"]?.stringValue == name }
        }
        guard let position, case .object(var input) = inputs[position] else { return false }
        input["value"] = value
        inputs[position] = .object(input)
        callback["input"] = .array(inputs)
        callbacks[index] = .object(callback)
        return true
    }
}
