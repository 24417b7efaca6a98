import AuthBridgeCore

/// Renders callbacks in AM's exact wire shape (am-protocol.md §2.2, §3) and reads the client's
/// answers back. Input names are `IDToken<N>` with N the 1-based position in the step.
enum CallbackRenderer {
    static func render(
        _ spec: CallbackSpec, position: Int, value: JSONValue?, failedPolicies: [String]
    ) -> JSONValue {
        let token = "IDToken\(position + 1)"
        var output: [JSONValue] = []
        var input: [JSONValue] = []
        func out(_ name: String, _ value: JSONValue) { output.append(["name": .string(name), "value": value]) }
        func inp(_ name: String, _ value: JSONValue) { input.append(["name": .string(name), "value": value]) }
        let failed = JSONValue.array(failedPolicies.map { .string($0) })

        switch spec.kind {
        case .name, .password:
            out("prompt", .string(spec.prompt))
            inp(token, value ?? "")
        case .textOutput:
            out("message", .string(spec.message ?? ""))
            out("messageType", .string(spec.messageType))
        case .validatedUsername, .validatedPassword:
            let isPassword = spec.kind == .validatedPassword
            if isPassword { out("echoOn", false) }
            out("policies", policiesObject(spec, name: spec.attribute ?? (isPassword ? "password" : "userName")))
            out("failedPolicies", failed)
            out("validateOnly", false)
            out("prompt", .string(spec.prompt))
            inp(token, value ?? "")
            inp(token + "validateOnly", false)
        case .stringAttribute:
            out("name", .string(spec.attribute ?? ""))
            out("prompt", .string(spec.prompt))
            out("required", .bool(spec.required))
            out("policies", policiesObject(spec, name: spec.attribute ?? ""))
            out("failedPolicies", failed)
            out("validateOnly", false)
            out("value", value ?? "")
            inp(token, value ?? "")
            inp(token + "validateOnly", false)
        }
        var callback: JSONObject = ["type": .string(spec.kind.rawValue), "output": .array(output)]
        if spec.kind.hasInput { callback["input"] = .array(input) }
        callback["_id"] = .int(Int64(position))
        return .object(callback)
    }

    /// AM's policy object for validated callbacks (the real-AM form, am-protocol.md §3).
    static func policiesObject(_ spec: CallbackSpec, name: String) -> JSONValue {
        var requirements: [String] = []
        for policy in spec.policies where !requirements.contains(policy.requirement) {
            requirements.append(policy.requirement)
        }
        let policies: [JSONValue] = spec.policies.map { policy in
            var object: JSONObject = [
                "policyRequirements": [.string(policy.requirement)], "policyId": .string(policy.policyId),
            ]
            if policy.params.count > 0 { object["params"] = .object(policy.params) }
            return .object(object)
        }
        return [
            "policyRequirements": .array(requirements.map { .string($0) }), "fallbackPolicies": .null,
            "name": .string(name), "policies": .array(policies), "conditionalPolicies": .null,
        ]
    }

    struct Answer {
        var value: JSONValue?
        var validateOnly: Bool
    }

    /// The client's answer for the callback at `position`, found by input name.
    static func answer(in callback: JSONValue?, position: Int) -> Answer {
        let token = "IDToken\(position + 1)"
        var answer = Answer(value: nil, validateOnly: false)
        guard case .array(let inputs)? = callback?["input"] else { return answer }
        for case .object(let input) in inputs {
            switch input["name"]?.stringValue {
            case token?: answer.value = input["value"]
            case (token + "validateOnly")?: answer.validateOnly = input["value"]?.boolValue ?? false
            default: continue
            }
        }
        return answer
    }
}
