import AuthBridgeCore
import IdentityServer

/// The validated callbacks of IDM-backed nodes: each carries its policies (AM's policy object),
/// the policies the last answer failed (AM-formatted JSON strings), and a `validateOnly` input.
extension Callback {
    static func validatedUsername(
        prompt: String, attribute: String, policies: [PolicySpec], failedPolicies: [String], required: Bool,
        value: JSONValue? = nil
    ) -> Callback {
        var output = [
            Field("policies", PolicySpec.object(policies, name: attribute)),
            Field("failedPolicies", strings(failedPolicies)),
            Field("validateOnly", false), Field("prompt", .string(prompt)),
        ]
        // AM writes `required` only when it is false.
        if !required { output.append(Field("required", false)) }
        return Callback(
            type: .validatedCreateUsername, output: output,
            input: [Field("", value ?? ""), Field("validateOnly", false)])
    }

    /// Never shows a typed password again.
    static func validatedPassword(
        prompt: String, attribute: String, echoOn: Bool, policies: [PolicySpec], failedPolicies: [String],
        required: Bool
    ) -> Callback {
        var output = [
            Field("echoOn", .bool(echoOn)), Field("policies", PolicySpec.object(policies, name: attribute)),
            Field("failedPolicies", strings(failedPolicies)), Field("validateOnly", false),
            Field("prompt", .string(prompt)),
        ]
        if !required { output.append(Field("required", false)) }
        return Callback(
            type: .validatedCreatePassword, output: output, input: [Field("", ""), Field("validateOnly", false)])
    }

    /// The three attribute callbacks of AM's Attribute Collector, by IDM schema type.
    enum AttributeType: Sendable {
        case string, number, boolean

        var callbackType: CallbackType {
            switch self {
            case .string: return .stringAttributeInput
            case .number: return .numberAttributeInput
            case .boolean: return .booleanAttributeInput
            }
        }

        /// The value an attribute starts with when its journey gives none.
        var empty: JSONValue {
            switch self {
            case .string: return ""
            case .number: return .null
            case .boolean: return false
            }
        }
    }

    /// `value` is shown both as the `value` output and in the input: what the user typed last,
    /// else the attribute's initial value. `policies` is the object AM sends: `{}` for booleans
    /// and for a platform node that does not validate (`PolicySpec.object` builds the others).
    static func attributeInput(
        _ type: AttributeType, name: String, prompt: String, required: Bool, policies: JSONValue,
        failedPolicies: [String],
        value: JSONValue
    ) -> Callback {
        Callback(
            type: type.callbackType,
            output: [
                Field("name", .string(name)), Field("prompt", .string(prompt)), Field("required", .bool(required)),
                Field("policies", policies), Field("failedPolicies", strings(failedPolicies)),
                Field("validateOnly", false),
                Field("value", value),
            ],
            input: [Field("", value), Field("validateOnly", false)])
    }

    private static func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
}
