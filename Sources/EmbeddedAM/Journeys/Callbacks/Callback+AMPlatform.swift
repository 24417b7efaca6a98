import AuthBridgeCore

/// Callbacks as AM's platform nodes send them where they differ from what AuthBridge's journey
/// JSON configures: attribute inputs whose `policies` is `{}` when the node does not validate,
/// and KBA with AM ≥ 7.3's `allowUserDefinedQuestions`.
extension Callback {
    static func platformAttributeInput(
        _ type: AttributeType, name: String, prompt: String, required: Bool, policies: JSONValue, failedPolicies: [String], value: JSONValue
    ) -> Callback {
        Callback(
            type: type.rawValue,
            output: [
                Field("name", .string(name)), Field("prompt", .string(prompt)), Field("required", .bool(required)),
                Field("policies", policies), Field("failedPolicies", .array(failedPolicies.map { .string($0) })),
                Field("validateOnly", false), Field("value", value),
            ],
            input: [Field("", value), Field("validateOnly", false)])
    }

    static func platformKbaCreate(prompt: String, predefinedQuestions: [String], allowUserDefinedQuestions: Bool) -> Callback {
        Callback(
            type: "KbaCreateCallback",
            output: [
                Field("prompt", .string(prompt)), Field("predefinedQuestions", .array(predefinedQuestions.map { .string($0) })),
                Field("allowUserDefinedQuestions", .bool(allowUserDefinedQuestions)),
            ],
            input: [Field("question", ""), Field("answer", "")])
    }
}
