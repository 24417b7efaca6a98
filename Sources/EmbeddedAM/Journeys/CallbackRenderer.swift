import AuthBridgeCore

/// Renders callbacks in AM's exact wire shape (am-protocol.md §2.2, §3) and reads the client's
/// answers back. Input names are `IDToken<N>` plus a suffix, N the 1-based position in the step;
/// `_id` is the 0-based position.
enum CallbackRenderer {
    static func render(_ spec: CallbackSpec, position: Int, value: JSONValue?, failedPolicies: [String]) -> JSONValue {
        let token = "IDToken\(position + 1)"
        var output: [JSONValue] = []
        for (name, kind) in spec.outputs {
            let rendered: JSONValue
            switch kind {
            case .fixed(let v): rendered = v
            case .failedPolicies: rendered = .array(failedPolicies.map { .string($0) })
            case .currentValue(let initial): rendered = value ?? initial
            }
            output.append(["name": .string(name), "value": rendered])
        }
        var callback: JSONObject = ["type": .string(spec.wireType), "output": .array(output)]
        if !spec.inputs.isEmpty {
            callback["input"] = .array(spec.inputs.enumerated().map { index, input in
                let shown = index == 0 && spec.echoesValue ? value ?? input.value : input.value
                return ["name": .string(token + input.suffix), "value": shown]
            })
        }
        callback["_id"] = .int(Int64(position))
        return .object(callback)
    }

    /// AM's policy object for validated callbacks (the real-AM form, am-protocol.md §3).
    static func policiesObject(_ policies: [PolicySpec], name: String) -> JSONValue {
        var requirements: [String] = []
        for policy in policies where !requirements.contains(policy.requirement) {
            requirements.append(policy.requirement)
        }
        let list: [JSONValue] = policies.map { policy in
            var object: JSONObject = [
                "policyRequirements": [.string(policy.requirement)], "policyId": .string(policy.policyId),
            ]
            if policy.params.count > 0 { object["params"] = .object(policy.params) }
            return .object(object)
        }
        return [
            "policyRequirements": .array(requirements.map { .string($0) }), "fallbackPolicies": .null,
            "name": .string(name), "policies": .array(list), "conditionalPolicies": .null,
        ]
    }

    /// The client's answer to one callback: its input values by suffix, found by input name.
    struct Answer {
        var inputs: [String: JSONValue] = [:]

        var value: JSONValue? { inputs[""] }
        var validateOnly: Bool { inputs["validateOnly"]?.boolValue ?? false }
    }

    static func answer(in callback: JSONValue?, position: Int, spec: CallbackSpec) -> Answer {
        let token = "IDToken\(position + 1)"
        var answer = Answer()
        guard case .array(let inputs)? = callback?["input"] else { return answer }
        for case .object(let input) in inputs {
            guard let name = input["name"]?.stringValue, name.hasPrefix(token) else { continue }
            let suffix = String(name.dropFirst(token.count))
            if spec.inputs.contains(where: { $0.suffix == suffix }) { answer.inputs[suffix] = input["value"] ?? .null }
        }
        return answer
    }
}
