import AuthBridgeCore

/// One callback of a page node, as configured. Rendering to AM's wire shape is in
/// `CallbackRenderer`; checking values against policies is in `PolicyEvaluator`.
public struct CallbackSpec: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case name = "NameCallback"
        case password = "PasswordCallback"
        case textOutput = "TextOutputCallback"
        case validatedUsername = "ValidatedCreateUsernameCallback"
        case validatedPassword = "ValidatedCreatePasswordCallback"
        case stringAttribute = "StringAttributeInputCallback"

        /// Where a collected value goes in shared state when the spec does not say.
        var defaultSharedState: String? {
            switch self {
            case .name, .validatedUsername: return "username"
            case .password, .validatedPassword: return "password"
            case .textOutput, .stringAttribute: return nil
            }
        }

        var defaultPrompt: String {
            switch self {
            case .name: return "User Name"
            case .password: return "Password"
            case .validatedUsername: return "Username"
            case .validatedPassword: return "Password"
            case .stringAttribute, .textOutput: return ""
            }
        }

        var isValidated: Bool {
            switch self {
            case .validatedUsername, .validatedPassword, .stringAttribute: return true
            case .name, .password, .textOutput: return false
            }
        }

        var hasInput: Bool { self != .textOutput }
    }

    public var kind: Kind
    public var prompt: String
    /// Dotted path in shared state: `username`, `password`, `objectAttributes.givenName`.
    public var sharedState: String?
    /// AM/IDM attribute name for attribute callbacks and for policy output (`userName`, `password`).
    public var attribute: String?
    public var required: Bool
    public var policies: [PolicySpec]
    public var message: String?
    public var messageType: String

    init(json: JSONValue) throws(JourneyNode.NodeError) {
        guard case .object(let object) = json else { throw JourneyNode.NodeError(reason: "must be an object") }
        guard case .string(let typeName)? = object["type"] else {
            throw JourneyNode.NodeError(reason: "\"type\" must be a string")
        }
        guard let kind = Kind(rawValue: typeName) else {
            throw JourneyNode.NodeError(reason: "unsupported callback type \"\(typeName)\"")
        }
        self.kind = kind
        prompt = object["prompt"]?.stringValue ?? kind.defaultPrompt
        attribute = object["attribute"]?.stringValue
        if kind == .stringAttribute, attribute == nil {
            throw JourneyNode.NodeError(reason: "\(typeName) needs \"attribute\"")
        }
        sharedState = object["sharedState"]?.stringValue
            ?? kind.defaultSharedState
            ?? attribute.map { "objectAttributes.\($0)" }
        required = object["required"]?.boolValue ?? true
        message = object["message"]?.stringValue
        messageType = object["messageType"]?.stringValue ?? "0"
        if kind == .textOutput, message == nil {
            throw JourneyNode.NodeError(reason: "TextOutputCallback needs \"message\"")
        }
        var policies: [PolicySpec] = []
        if let list = object["policies"] {
            guard case .array(let items) = list else { throw JourneyNode.NodeError(reason: "\"policies\" must be an array") }
            for item in items {
                guard case .object(let policy) = item, case .string(let id)? = policy["policyId"] else {
                    throw JourneyNode.NodeError(reason: "each policy needs a \"policyId\"")
                }
                guard PolicySpec.requirement(for: id) != nil else {
                    throw JourneyNode.NodeError(reason: "unknown policyId \"\(id)\"")
                }
                policies.append(PolicySpec(policyId: id, params: policy["params"]?.objectValue ?? [:]))
            }
        }
        self.policies = policies
    }
}

public struct PolicySpec: Equatable, Sendable {
    public var policyId: String
    public var params: JSONObject

    /// IDM policy ids and the requirement names AM reports for them (am-protocol.md §3).
    static func requirement(for policyId: String) -> String? {
        switch policyId {
        case "required": return "REQUIRED"
        case "unique": return "UNIQUE"
        case "minimum-length": return "MIN_LENGTH"
        case "maximum-length": return "MAX_LENGTH"
        case "at-least-X-capitals": return "AT_LEAST_X_CAPITAL_LETTERS"
        case "at-least-X-numbers": return "AT_LEAST_X_NUMBERS"
        case "valid-email-address-format": return "VALID_EMAIL_ADDRESS_FORMAT"
        case "cannot-contain-others": return "CANNOT_CONTAIN_OTHERS"
        default: return nil
        }
    }

    var requirement: String { Self.requirement(for: policyId)! }
}
