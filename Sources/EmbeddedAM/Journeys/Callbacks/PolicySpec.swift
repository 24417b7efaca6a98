import AuthBridgeCore

/// One IDM policy a validated callback's answer must pass (`minimum-length` with `{minLength: 8}`).
public struct PolicySpec: Equatable, Sendable {
    public var policyId: String
    public var params: JSONObject

    static let known = [
        "required", "unique", "valid-username", "minimum-length", "maximum-length", "at-least-X-capitals",
        "at-least-X-numbers",
        "valid-email-address-format", "cannot-contain-others", "cannot-contain-characters", "minimum-number-value",
        "maximum-number-value",
    ]

    /// IDM policy ids and the requirement names AM reports for them (forgerock-ios-sdk's captured `RegistrationNode.json`).
    static func requirement(for policyId: String) -> String? {
        switch policyId {
        case "required": return "REQUIRED"
        case "unique": return "UNIQUE"
        // AM 7 platform's userName policy: a taken name fails it (older AM said UNIQUE).
        case "valid-username": return "VALID_USERNAME"
        case "minimum-length": return "MIN_LENGTH"
        case "maximum-length": return "MAX_LENGTH"
        case "at-least-X-capitals": return "AT_LEAST_X_CAPITAL_LETTERS"
        case "at-least-X-numbers": return "AT_LEAST_X_NUMBERS"
        case "valid-email-address-format": return "VALID_EMAIL_ADDRESS_FORMAT"
        case "cannot-contain-others": return "CANNOT_CONTAIN_OTHERS"
        case "cannot-contain-characters": return "CANNOT_CONTAIN_CHARACTERS"
        case "minimum-number-value": return "MINIMUM_NUMBER_VALUE"
        case "maximum-number-value": return "MAXIMUM_NUMBER_VALUE"
        default: return nil
        }
    }

    var requirement: String { Self.requirement(for: policyId)! }

    /// AM's policy object for validated callbacks (the real-AM form, forgerock-ios-sdk's `RegistrationNode.json`), not the
    /// list the JS SDK's mock sends.
    static func object(_ policies: [PolicySpec], name: String) -> JSONValue {
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
}
