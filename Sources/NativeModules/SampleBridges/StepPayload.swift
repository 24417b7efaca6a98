import AuthBridgeCore

/// What `next(payload)` receives, decoded with the schema the native bridges use
/// (`FRAuthSampleStructs.swift` of the RN sample, docs/flavors.md): `{authId?, callbacks?: [{type?, input?: [{name, value?}], _id?}], status?}`.
/// Unknown keys are ignored; a wrong type on a known key fails the whole decode, as Swift's
/// JSONDecoder does, but here the failure says where.
struct StepPayload {
    struct Input {
        var name: String
        /// nil for JSON null or a missing value: the native side then leaves the input alone.
        var value: JSONValue?
    }

    struct Callback {
        var type: String?
        var inputs: [Input]
    }

    var callbacks: [Callback]

    struct DecodeError: Error { var detail: String }

    static func decode(_ text: String) throws(DecodeError) -> StepPayload {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw DecodeError(detail: "the payload is not JSON: \(error)")
        }
        guard case .object(let object) = json else {
            throw DecodeError(detail: "the payload must be a JSON object (a step), got \(json.typeName)")
        }
        if let authId = object["authId"], !authId.isNull, authId.stringValue == nil {
            throw DecodeError(detail: "authId must be a string, got \(authId.typeName)")
        }
        if let status = object["status"], !status.isNull, status.intValue == nil {
            throw DecodeError(detail: "status must be an integer, got \(status.typeName)")
        }
        var callbacks: [Callback] = []
        switch object["callbacks"] {
        case nil, .null?: break
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                callbacks.append(try decodeCallback(item, path: "callbacks[\(index)]"))
            }
        case let other?:
            throw DecodeError(detail: "callbacks must be an array, got \(other.typeName)")
        }
        return StepPayload(callbacks: callbacks)
    }

    private static func decodeCallback(_ value: JSONValue, path: String) throws(DecodeError) -> Callback {
        guard case .object(let object) = value else {
            throw DecodeError(detail: "\(path) must be an object, got \(value.typeName)")
        }
        var type: String?
        switch object["type"] {
        case nil, .null?: type = nil
        case .string(let s)?: type = s
        case let other?: throw DecodeError(detail: "\(path).type must be a string, got \(other.typeName)")
        }
        if let id = object["_id"], !id.isNull, id.intValue == nil {
            throw DecodeError(detail: "\(path)._id must be an integer, got \(id.typeName)")
        }
        var inputs: [Input] = []
        switch object["input"] {
        case nil, .null?: break
        case .array(let items)?:
            for (index, item) in items.enumerated() {
                let inputPath = "\(path).input[\(index)]"
                guard case .object(let input) = item else {
                    throw DecodeError(detail: "\(inputPath) must be an object, got \(item.typeName)")
                }
                guard case .string(let name)? = input["name"] else {
                    throw DecodeError(detail: "\(inputPath).name must be a string")
                }
                let raw = input["value"]
                inputs.append(Input(name: name, value: raw == .null ? nil : raw))
            }
        case let other?:
            throw DecodeError(detail: "\(path).input must be an array, got \(other.typeName)")
        }
        return Callback(type: type, inputs: inputs)
    }
}
