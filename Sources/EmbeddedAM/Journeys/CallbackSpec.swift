import AuthBridgeCore

/// One callback of a step, as configured: its outputs and inputs in AM's wire order
/// (am-protocol.md §3), where the answer goes in shared state, and its policies. Every type of
/// the iOS SDK core list can be configured; `CallbackRenderer` turns a spec into AM's JSON.
public struct CallbackSpec: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case name = "NameCallback"
        case password = "PasswordCallback"
        case textInput = "TextInputCallback"
        case choice = "ChoiceCallback"
        case confirmation = "ConfirmationCallback"
        case textOutput = "TextOutputCallback"
        case suspendedTextOutput = "SuspendedTextOutputCallback"
        case pollingWait = "PollingWaitCallback"
        case hiddenValue = "HiddenValueCallback"
        case validatedUsername = "ValidatedCreateUsernameCallback"
        case validatedPassword = "ValidatedCreatePasswordCallback"
        case stringAttribute = "StringAttributeInputCallback"
        case numberAttribute = "NumberAttributeInputCallback"
        case booleanAttribute = "BooleanAttributeInputCallback"
        case kbaCreate = "KbaCreateCallback"
        case termsAndConditions = "TermsAndConditionsCallback"
        case deviceProfile = "DeviceProfileCallback"
        case metadata = "MetadataCallback"
        case reCaptcha = "ReCaptchaCallback"
        case selectIdP = "SelectIdPCallback"
        case idP = "IdPCallback"
        case appIntegrity = "AppIntegrityCallback"
        /// On the wire a MetadataCallback (`_type: WebAuthn`) followed by a HiddenValueCallback
        /// `webAuthnOutcome`; the iOS SDK builds its WebAuthn classes from that pair.
        case webAuthnRegistration = "WebAuthnRegistrationCallback"
        case webAuthnAuthentication = "WebAuthnAuthenticationCallback"

        /// Validated callbacks carry `policies`/`failedPolicies` and a `validateOnly` input.
        var isValidated: Bool {
            switch self {
            case .validatedUsername, .validatedPassword, .stringAttribute, .numberAttribute, .booleanAttribute: return true
            default: return false
            }
        }
    }

    /// An output whose value is known only when the step is rendered.
    enum Output: Sendable {
        case fixed(JSONValue)
        /// `failedPolicies`: the AM-formatted JSON strings of the last evaluation.
        case failedPolicies
        /// An attribute's `value`: what the user typed last, else the configured default.
        case currentValue(JSONValue)
    }

    /// `suffix` is appended to `IDToken<N>` (`""`, `validateOnly`, `question`, `token`, …).
    struct Input: Sendable {
        var suffix: String
        var value: JSONValue
    }

    public var kind: Kind
    /// The type AM writes on the wire (WebAuthn callbacks are MetadataCallbacks there).
    public var wireType: String
    var outputs: [(name: String, value: Output)]
    var inputs: [Input]
    /// Dotted path in shared state for the answer: `username`, `objectAttributes.givenName`.
    public var sharedState: String?
    public var policies: [PolicySpec]
    /// Whether the value the user typed is shown again when the page repeats.
    var echoesValue: Bool
    /// Choices of a ChoiceCallback: its answer must be the index of one.
    var choiceCount: Int?

    init(json: JSONValue) throws(SettingsError) {
        var s = try Settings(json, what: "a callback")
        guard let typeName = try s.string("type") else { throw SettingsError(reason: "\"type\" must name a callback type") }
        guard let kind = Kind(rawValue: typeName) else {
            throw SettingsError(reason: "unsupported callback type \"\(typeName)\" (supported: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        self.kind = kind
        wireType = kind.rawValue
        outputs = []
        inputs = [Input(suffix: "", value: "")]
        policies = []
        echoesValue = true
        var sharedDefault: String?

        func fixed(_ name: String, _ value: JSONValue) { outputs.append((name, .fixed(value))) }

        switch kind {
        case .name:
            fixed("prompt", .string(try s.string("prompt", default: "User Name")))
            sharedDefault = "username"
        case .password:
            fixed("prompt", .string(try s.string("prompt", default: "Password")))
            sharedDefault = "password"
            echoesValue = false
        case .textInput:
            fixed("prompt", .string(try s.requiredString("prompt")))
            if let text = try s.string("defaultText") { fixed("defaultText", .string(text)) }
        case .choice:
            fixed("prompt", .string(try s.requiredString("prompt")))
            let choices = try s.strings("choices", nonEmpty: true) ?? []
            if choices.isEmpty { throw SettingsError(reason: "\"choices\" is required (a non-empty array of strings)") }
            fixed("choices", .array(choices.map { .string($0) }))
            let defaultChoice = try s.int("defaultChoice", default: 0, in: 0...(choices.count - 1))
            fixed("defaultChoice", .int(Int64(defaultChoice)))
            inputs = [Input(suffix: "", value: .int(Int64(defaultChoice)))]
            choiceCount = choices.count
        case .confirmation:
            fixed("prompt", .string(try s.string("prompt", default: "")))
            fixed("messageType", .int(Int64(try s.int("messageType", default: 0, in: 0...2))))
            let options = try s.strings("options", nonEmpty: true) ?? []
            if options.isEmpty { throw SettingsError(reason: "\"options\" is required (a non-empty array of strings)") }
            fixed("options", .array(options.map { .string($0) }))
            fixed("optionType", .int(Int64(try s.int("optionType", default: -1, in: -1...2))))
            let defaultOption = try s.int("defaultOption", default: 0, in: 0...(options.count - 1))
            fixed("defaultOption", .int(Int64(defaultOption)))
            // AM pre-fills the input; an unanswered confirmation keeps this value.
            inputs = [Input(suffix: "", value: .int(Int64(try s.int("value", default: defaultOption, in: 0...100))))]
        case .textOutput, .suspendedTextOutput:
            fixed("message", .string(try s.requiredString("message")))
            fixed("messageType", .string(try Self.messageType(&s, kind: kind)))
            inputs = []
        case .pollingWait:
            let waitTime = try s.int("waitTime", default: 5000, in: 0...3_600_000)
            fixed("waitTime", .string(String(waitTime)))
            fixed("message", .string(try s.requiredString("message")))
            inputs = []
        case .hiddenValue:
            let id = try s.requiredString("id")
            fixed("value", .string(try s.string("value", default: "")))
            fixed("id", .string(id))
            inputs = [Input(suffix: "", value: .string(id))]
            sharedDefault = id
        case .validatedUsername, .validatedPassword:
            let isPassword = kind == .validatedPassword
            let attribute = try s.string("attribute", default: isPassword ? "password" : "userName")
            policies = try Self.policies(&s)
            if isPassword { fixed("echoOn", .bool(try s.bool("echoOn", default: false))) }
            fixed("policies", CallbackRenderer.policiesObject(policies, name: attribute))
            outputs.append(("failedPolicies", .failedPolicies))
            fixed("validateOnly", false)
            fixed("prompt", .string(try s.string("prompt", default: isPassword ? "Password" : "Username")))
            if try s.bool("required", default: true) == false { fixed("required", false) }
            inputs = [Input(suffix: "", value: ""), Input(suffix: "validateOnly", value: false)]
            sharedDefault = isPassword ? "password" : "username"
            echoesValue = !isPassword
        case .stringAttribute, .numberAttribute, .booleanAttribute:
            let attribute = try s.requiredString("attribute")
            let empty: JSONValue = kind == .stringAttribute ? "" : kind == .booleanAttribute ? false : .null
            let initial = s.raw("value") ?? empty
            try Self.check(initial, fits: kind)
            policies = try Self.policies(&s)
            if kind == .booleanAttribute, !policies.isEmpty {
                throw SettingsError(reason: "a BooleanAttributeInputCallback takes no policies (AM sends {})")
            }
            fixed("name", .string(attribute))
            fixed("prompt", .string(try s.string("prompt", default: attribute)))
            fixed("required", .bool(try s.bool("required", default: true)))
            fixed("policies", kind == .booleanAttribute ? .object([:]) : CallbackRenderer.policiesObject(policies, name: attribute))
            outputs.append(("failedPolicies", .failedPolicies))
            fixed("validateOnly", false)
            outputs.append(("value", .currentValue(initial)))
            inputs = [Input(suffix: "", value: initial), Input(suffix: "validateOnly", value: false)]
            sharedDefault = "objectAttributes." + attribute.replacingSlashes
        case .kbaCreate:
            fixed("prompt", .string(try s.string("prompt", default: "Select a security question")))
            let questions = try s.strings("predefinedQuestions", nonEmpty: true) ?? []
            if questions.isEmpty { throw SettingsError(reason: "\"predefinedQuestions\" is required (the iOS SDK rejects a KBA callback without them)") }
            fixed("predefinedQuestions", .array(questions.map { .string($0) }))
            inputs = [Input(suffix: "question", value: ""), Input(suffix: "answer", value: "")]
            sharedDefault = "objectAttributes.kbaInfo"
            echoesValue = false
        case .termsAndConditions:
            fixed("version", .string(try s.string("version", default: "0.0")))
            fixed("terms", .string(try s.string("terms", default: "Terms and conditions: use this account only as intended.")))
            fixed("createDate", .string(try s.string("createDate", default: "2019-10-28T04:20:11.320Z")))
            inputs = [Input(suffix: "", value: false)]
            sharedDefault = "termsAccepted"
        case .deviceProfile:
            fixed("metadata", .bool(try s.bool("metadata", default: true)))
            fixed("location", .bool(try s.bool("location", default: true)))
            fixed("message", .string(try s.string("message", default: "Collecting profile ...")))
            sharedDefault = "deviceProfile"
            echoesValue = false
        case .metadata:
            guard let data = try s.object("data") else { throw SettingsError(reason: "\"data\" is required (an object)") }
            fixed("data", .object(data))
            inputs = []
        case .reCaptcha:
            fixed("recaptchaSiteKey", .string(try s.requiredString("recaptchaSiteKey")))
            sharedDefault = "recaptchaToken"
        case .selectIdP:
            guard let providers = try s.array("providers"), !providers.isEmpty,
                providers.allSatisfy({ $0["provider"]?.stringValue != nil })
            else { throw SettingsError(reason: "\"providers\" is required: an array of objects with a \"provider\" string") }
            fixed("providers", .array(providers))
            fixed("value", "")
            sharedDefault = "selectedIdP"
        case .idP:
            fixed("provider", .string(try s.requiredString("provider")))
            fixed("clientId", .string(try s.requiredString("clientId")))
            fixed("redirectUri", .string(try s.requiredString("redirectUri")))
            fixed("scopes", .array((try s.strings("scopes", nonEmpty: false) ?? ["openid"]).map { .string($0) }))
            fixed("nonce", .string(try s.string("nonce", default: "")))
            fixed("acrValues", .array((try s.strings("acrValues", nonEmpty: false) ?? []).map { .string($0) }))
            fixed("request", .string(try s.string("request", default: "")))
            fixed("requestUri", .string(try s.string("requestUri", default: "")))
            fixed("acceptsJSON", .bool(try s.bool("acceptsJSON", default: false)))
            inputs = [Input(suffix: "token", value: ""), Input(suffix: "token_type", value: "")]
            sharedDefault = "idpToken"
        case .appIntegrity:
            fixed("challenge", .string(try s.requiredString("challenge")))
            inputs = ["token", "clientError", "keyId", "assert", "clientData"].map { Input(suffix: $0, value: "") }
            sharedDefault = "appIntegrity"
        case .webAuthnRegistration, .webAuthnAuthentication:
            wireType = Kind.metadata.rawValue
            let registration = kind == .webAuthnRegistration
            var data: JSONObject = [
                "_type": "WebAuthn",
                "_action": .string(registration ? "webauthn_registration" : "webauthn_authentication"),
                "challenge": .string(try s.requiredString("challenge")),
                "relyingPartyId": .string(try s.string("relyingPartyId", default: "example.com")),
                "timeout": .string(String(try s.int("timeout", default: 60000, in: 0...600_000))),
                "userVerification": .string(try s.string("userVerification", default: "preferred")),
                "supportsJsonResponse": true,
            ]
            if registration {
                data["relyingPartyName"] = .string(try s.string("relyingPartyName", default: "ForgeRock"))
                data["attestationPreference"] = "none"
                data["displayName"] = .string(try s.string("displayName", default: "demo"))
                data["userName"] = .string(try s.string("userName", default: "demo"))
                data["pubKeyCredParams"] = [["type": "public-key", "alg": -7], ["type": "public-key", "alg": -257]]
            } else {
                data["allowCredentials"] = []
            }
            fixed("data", .object(data))
            inputs = []
        }
        sharedState = try s.string("sharedState") ?? sharedDefault
        try s.finish()
    }

    private static func messageType(_ s: inout Settings, kind: Kind) throws(SettingsError) -> String {
        // AM sends the TextOutput message type as a string; a journey file may write 0 or "0".
        guard let value = s.raw("messageType") else { return "0" }
        let text = value.stringValue ?? value.intValue.map { String($0) } ?? ""
        let allowed = kind == .textOutput ? ["0", "1", "2", "4"] : ["0"]
        guard allowed.contains(text) else {
            throw SettingsError(reason: "\"messageType\" must be one of \(allowed.joined(separator: ", ")) (0 information, 1 warning, 2 error, 4 script)")
        }
        return text
    }

    private static func check(_ value: JSONValue, fits kind: Kind) throws(SettingsError) {
        let ok: Bool
        switch kind {
        case .stringAttribute: ok = value.stringValue != nil
        case .numberAttribute: ok = value == .null || value.doubleValue != nil
        default: ok = value.boolValue != nil
        }
        if !ok { throw SettingsError(reason: "\"value\" does not fit a \(kind.rawValue)") }
    }

    private static func policies(_ s: inout Settings) throws(SettingsError) -> [PolicySpec] {
        guard let list = try s.array("policies") else { return [] }
        var policies: [PolicySpec] = []
        for item in list {
            guard case .object(let policy) = item, case .string(let id)? = policy["policyId"] else {
                throw SettingsError(reason: "each policy needs a \"policyId\" string")
            }
            guard PolicySpec.requirement(for: id) != nil else {
                throw SettingsError(reason: "unknown policyId \"\(id)\" (known: \(PolicySpec.known.joined(separator: ", ")))")
            }
            policies.append(PolicySpec(policyId: id, params: policy["params"]?.objectValue ?? [:]))
        }
        return policies
    }
}

extension String {
    /// IDM attribute paths use `/` (`preferences/marketing`); shared state uses dots.
    var replacingSlashes: String { split(separator: "/").joined(separator: ".") }
}

public struct PolicySpec: Equatable, Sendable {
    public var policyId: String
    public var params: JSONObject

    static let known = [
        "required", "unique", "minimum-length", "maximum-length", "at-least-X-capitals", "at-least-X-numbers",
        "valid-email-address-format", "cannot-contain-others", "cannot-contain-characters", "minimum-number-value",
        "maximum-number-value",
    ]

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
        case "cannot-contain-characters": return "CANNOT_CONTAIN_CHARACTERS"
        case "minimum-number-value": return "MINIMUM_NUMBER_VALUE"
        case "maximum-number-value": return "MAXIMUM_NUMBER_VALUE"
        default: return nil
        }
    }

    var requirement: String { Self.requirement(for: policyId)! }
}
