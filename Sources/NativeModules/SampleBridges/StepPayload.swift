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

    /// Why a payload could not be read, as fields; `detail` words it for the rejection.
    enum DecodeError: Error, Equatable {
        case notJSON(JSONParseError)
        /// The payload is JSON but not an object.
        case notAStep(JSONValue.Kind)
        /// A known member has the wrong type, at `path`.
        case member(JSONReadError)

        var detail: String {
            switch self {
            case .notJSON(let error): return "the payload is not JSON: \(error)"
            case .notAStep(let kind): return "the payload must be a JSON object (a step), got \(kind.rawValue)"
            case .member(let error): return error.description
            }
        }
    }

    static func decode(_ text: String) throws(DecodeError) -> StepPayload {
        let json: JSONValue
        do {
            json = try JSONParser.parse(text)
        } catch {
            throw .notJSON(error)
        }
        guard case .object(let object) = json else { throw .notAStep(json.kind) }
        do throws(JSONReadError) {
            let step = JSONReader<JSONReadError>(object: object)
            _ = try step.optionalString("authId")
            _ = try step.optionalInt("status")
            return StepPayload(callbacks: try (step["callbacks"].optionalReaders() ?? []).map(callback))
        } catch {
            throw .member(error)
        }
    }

    private static func callback(_ callback: JSONReader<JSONReadError>) throws(JSONReadError) -> Callback {
        let type = try callback.optionalString("type")
        _ = try callback.optionalInt("_id")
        let inputs = try (callback["input"].optionalReaders() ?? []).map { input throws(JSONReadError) in
            // A null or missing value: the native side then leaves the input alone.
            Input(name: try input.string("name"), value: input["value"].present)
        }
        return Callback(type: type, inputs: inputs)
    }
}
