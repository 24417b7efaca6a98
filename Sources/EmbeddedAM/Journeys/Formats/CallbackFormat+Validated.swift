import AuthBridgeCore

/// The validated callback entries: IDM's username, password and attribute callbacks with their
/// policies.
extension CallbackFormat {
    static func validatedUsername(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let attribute = try s.string("attribute", default: "userName")
        let policies = try Self.policies(&s)
        let prompt = try s.string("prompt", default: "Username")
        let required = try s.bool("required", default: true)
        return CallbackCollector(target: .shared("username"), validated: true, policies: policies) { typed, failed in
            [
                .validatedUsername(
                    prompt: prompt, attribute: attribute, policies: policies, failedPolicies: failed,
                    required: required, value: typed)
            ]
        }
    }

    static func validatedPassword(_ s: inout Settings) throws(SettingsError) -> CallbackCollector {
        let attribute = try s.string("attribute", default: "password")
        let policies = try Self.policies(&s)
        let echoOn = try s.bool("echoOn", default: false)
        let prompt = try s.string("prompt", default: "Password")
        let required = try s.bool("required", default: true)
        return CallbackCollector(target: .transient("password"), echoes: false, validated: true, policies: policies) {
            _, failed in
            [
                .validatedPassword(
                    prompt: prompt, attribute: attribute, echoOn: echoOn, policies: policies, failedPolicies: failed,
                    required: required)
            ]
        }
    }

    static func attribute(
        _ s: inout Settings, _ type: Callback.AttributeType
    ) throws(SettingsError) -> CallbackCollector {
        let attribute = try s.requiredString("attribute")
        try Settings.checkPath(attribute, key: "attribute", separator: "/")
        let initial = s.raw("value") ?? type.empty
        try check(initial, fits: type)
        let policies = try Self.policies(&s)
        if type == .boolean, !policies.isEmpty {
            throw SettingsError(reason: "a BooleanAttributeInputCallback takes no policies (AM sends {})")
        }
        let prompt = try s.string("prompt", default: attribute)
        let required = try s.bool("required", default: true)
        // AM sends booleans an empty policy object.
        let policyObject: JSONValue = type == .boolean ? .object([:]) : PolicySpec.object(policies, name: attribute)
        return CallbackCollector(
            target: .shared("objectAttributes." + attribute.replacingSlashes), validated: true, policies: policies
        ) {
            typed, failed in
            [
                .attributeInput(
                    type, name: attribute, prompt: prompt, required: required, policies: policyObject,
                    failedPolicies: failed, value: typed ?? initial)
            ]
        }
    }

    private static func check(_ value: JSONValue, fits type: Callback.AttributeType) throws(SettingsError) {
        let ok: Bool
        switch type {
        case .string: ok = value.stringValue != nil
        case .number: ok = value == .null || value.doubleValue != nil
        case .boolean: ok = value.boolValue != nil
        }
        if !ok { throw SettingsError(reason: "\"value\" does not fit a \(type.callbackType.rawValue)") }
    }

    private static func policies(_ s: inout Settings) throws(SettingsError) -> [PolicySpec] {
        guard let list = try s.array("policies") else { return [] }
        var policies: [PolicySpec] = []
        for item in list {
            guard case .object(let policy) = item, case .string(let id)? = policy["policyId"] else {
                throw SettingsError(reason: "each policy needs a \"policyId\" string")
            }
            guard PolicySpec.requirement(for: id) != nil else {
                throw SettingsError(
                    reason: "unknown policyId \"\(id)\" (known: \(PolicySpec.known.joined(separator: ", ")))")
            }
            policies.append(PolicySpec(policyId: id, params: policy["params"]?.objectValue ?? [:]))
        }
        return policies
    }
}
