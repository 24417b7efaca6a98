import AuthBridgeCore

/// Checks a submitted value against a callback's policies and writes failures the way AM does:
/// each an AM-formatted JSON *string* (`{ "params": { … }, "policyRequirement": "…" }`).
struct PolicyEvaluator {
    let users: UserDirectory

    func failures(of policies: [PolicySpec], value: JSONValue, sharedState: JSONObject) -> [String] {
        failed(policies, value: value, sharedState: sharedState).map {
            Self.amFormat(requirement: $0.requirement, params: $0.params)
        }
    }

    /// The policies the value fails, as specs (the review's typed account of what failed).
    func failed(_ policies: [PolicySpec], value: JSONValue, sharedState: JSONObject) -> [PolicySpec] {
        policies.filter { !passes($0, value: value, sharedState: sharedState) }
    }

    private func passes(_ policy: PolicySpec, value json: JSONValue, sharedState: JSONObject) -> Bool {
        func intParam(_ key: String) -> Int { Int(policy.params[key]?.intValue ?? 0) }
        let value = JourneyValues.text(json)
        switch policy.policyId {
        case "required": return !value.isEmpty
        case "minimum-number-value", "maximum-number-value":
            guard let number = json.doubleValue ?? Double(value) else { return value.isEmpty }
            let bound =
                policy.params[policy.policyId == "minimum-number-value" ? "minimum" : "maximum"]?.doubleValue ?? 0
            return policy.policyId == "minimum-number-value" ? number >= bound : number <= bound
        case "cannot-contain-characters":
            let forbidden = policy.params["forbiddenChars"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return !forbidden.contains { !$0.isEmpty && value.contains($0) }
        case "unique", "valid-username": return value.isEmpty || !users.contains(username: value)
        case "minimum-length": return value.count >= intParam("minLength")
        case "maximum-length": return value.count <= intParam("maxLength")
        case "at-least-X-capitals": return value.filter(\.isUppercase).count >= intParam("numCaps")
        case "at-least-X-numbers": return value.filter(\.isNumber).count >= intParam("numNums")
        case "valid-email-address-format": return Self.looksLikeEmail(value)
        case "cannot-contain-others":
            let fields = policy.params["disallowedFields"]?.arrayValue?.compactMap(\.stringValue) ?? []
            return fields.allSatisfy { field in
                guard let other = Self.sharedValue(field, in: sharedState), other.count >= 3 else { return true }
                return !value.lowercased().contains(other.lowercased())
            }
        default: return true
        }
    }

    private static func sharedValue(_ field: String, in state: JSONObject) -> String? {
        if field == "userName" { return state["username"]?.stringValue }
        return state.value(path: "objectAttributes." + field.replacingSlashes)?.stringValue
    }

    static func looksLikeEmail(_ value: String) -> Bool {
        let parts = value.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."), !value.contains(" ")
        else { return false }
        return true
    }

    /// AM writes failed policies with spaces inside braces and after colons and commas.
    static func amFormat(requirement: String, params: JSONObject) -> String {
        var members: [String] = []
        if params.count > 0 { members.append("\"params\": \(amFormat(.object(params)))") }
        members.append("\"policyRequirement\": \(JSONWriter.compact(.string(requirement)))")
        return "{ " + members.joined(separator: ", ") + " }"
    }

    private static func amFormat(_ value: JSONValue) -> String {
        switch value {
        case .object(let object):
            let members = object.members.map { "\(JSONWriter.compact(.string($0.key))): \(amFormat($0.value))" }
            return "{ " + members.joined(separator: ", ") + " }"
        case .array(let items):
            return "[ " + items.map(amFormat).joined(separator: ", ") + " ]"
        default:
            return JSONWriter.compact(value)
        }
    }
}
