import AuthBridgeCore

/// The typed builders: one per callback type of the iOS SDK core list, each writing its outputs
/// and inputs in AM's order (`ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/Callbacks/`, its captured AM steps). `value` is what the user typed last, shown again
/// in the first input when a step repeats; nil shows the callback's own default.
extension Callback {
    static func name(prompt: String, value: JSONValue? = nil) -> Callback {
        Callback(type: .name, output: [Field("prompt", .string(prompt))], input: [Field("", value ?? "")])
    }

    /// Never shows a typed password again.
    static func password(prompt: String) -> Callback {
        Callback(type: .password, output: [Field("prompt", .string(prompt))], input: [Field("", "")])
    }

    static func textInput(prompt: String, defaultText: String?, value: JSONValue? = nil) -> Callback {
        var output = [Field("prompt", .string(prompt))]
        if let defaultText { output.append(Field("defaultText", .string(defaultText))) }
        return Callback(type: .textInput, output: output, input: [Field("", value ?? "")])
    }

    static func choice(prompt: String, choices: [String], defaultChoice: Int, value: JSONValue? = nil) -> Callback {
        Callback(
            type: .choice,
            output: [
                Field("prompt", .string(prompt)), Field("choices", .array(choices.map { .string($0) })),
                Field("defaultChoice", .int(Int64(defaultChoice))),
            ],
            input: [Field("", value ?? .int(Int64(defaultChoice)))], answerRule: .optionIndex(count: choices.count))
    }

    /// `preset` is the input AM pre-fills: an unanswered confirmation keeps it.
    static func confirmation(
        prompt: String, messageType: Int, options: [String], optionType: Int, defaultOption: Int, preset: Int,
        value: JSONValue? = nil
    ) -> Callback {
        Callback(
            type: .confirmation,
            output: [
                Field("prompt", .string(prompt)), Field("messageType", .int(Int64(messageType))),
                Field("options", .array(options.map { .string($0) })), Field("optionType", .int(Int64(optionType))),
                Field("defaultOption", .int(Int64(defaultOption))),
            ],
            input: [Field("", value ?? .int(Int64(preset)))], answerRule: .optionIndex(count: nil))
    }

    /// AM sends the message type as a string ("0" information, "1" warning, "2" error, "4" script).
    static func textOutput(message: String, messageType: String) -> Callback {
        Callback(
            type: .textOutput, output: [Field("message", .string(message)), Field("messageType", .string(messageType))])
    }

    static func suspendedTextOutput(message: String, messageType: String) -> Callback {
        Callback(
            type: .suspendedTextOutput,
            output: [Field("message", .string(message)), Field("messageType", .string(messageType))])
    }

    /// AM writes the wait time in milliseconds, as a string.
    static func pollingWait(waitTime: Int, message: String) -> Callback {
        Callback(
            type: .pollingWait,
            output: [Field("waitTime", .string(String(waitTime))), Field("message", .string(message))])
    }

    /// The input carries the id until the client fills it.
    static func hiddenValue(id: String, value: String, typed: JSONValue? = nil) -> Callback {
        Callback(
            type: .hiddenValue, output: [Field("value", .string(value)), Field("id", .string(id))],
            input: [Field("", typed ?? .string(id))])
    }

    static func termsAndConditions(
        version: String, terms: String, createDate: String, value: JSONValue? = nil
    ) -> Callback {
        Callback(
            type: .termsAndConditions,
            output: [
                Field("version", .string(version)), Field("terms", .string(terms)),
                Field("createDate", .string(createDate)),
            ],
            input: [Field("", value ?? false)])
    }

    /// `allowUserDefinedQuestions` is sent by AM 7.3 and later.
    static func kbaCreate(prompt: String, predefinedQuestions: [String], allowUserDefinedQuestions: Bool) -> Callback {
        Callback(
            type: .kbaCreate,
            output: [
                Field("prompt", .string(prompt)),
                Field("predefinedQuestions", .array(predefinedQuestions.map { .string($0) })),
                Field("allowUserDefinedQuestions", .bool(allowUserDefinedQuestions)),
            ],
            input: [Field("question", ""), Field("answer", "")])
    }

    static func deviceProfile(metadata: Bool, location: Bool, message: String) -> Callback {
        Callback(
            type: .deviceProfile,
            output: [
                Field("metadata", .bool(metadata)), Field("location", .bool(location)),
                Field("message", .string(message)),
            ],
            input: [Field("", "")])
    }

    static func metadata(data: JSONObject) -> Callback {
        Callback(type: .metadata, output: [Field("data", .object(data))])
    }

    static func reCaptcha(siteKey: String, value: JSONValue? = nil) -> Callback {
        Callback(
            type: .reCaptcha, output: [Field("recaptchaSiteKey", .string(siteKey))], input: [Field("", value ?? "")])
    }

    static func selectIdP(providers: [JSONValue], value: JSONValue? = nil) -> Callback {
        Callback(
            type: .selectIdP, output: [Field("providers", .array(providers)), Field("value", "")],
            input: [Field("", value ?? "")])
    }

    struct IdPRequest: Sendable {
        var provider: String
        var clientId: String
        var redirectUri: String
        var scopes: [String]
        var nonce: String
        var acrValues: [String]
        var request: String
        var requestUri: String
        var acceptsJSON: Bool
    }

    static func idP(_ r: IdPRequest) -> Callback {
        Callback(
            type: .idP,
            output: [
                Field("provider", .string(r.provider)), Field("clientId", .string(r.clientId)),
                Field("redirectUri", .string(r.redirectUri)),
                Field("scopes", .array(r.scopes.map { .string($0) })), Field("nonce", .string(r.nonce)),
                Field("acrValues", .array(r.acrValues.map { .string($0) })), Field("request", .string(r.request)),
                Field("requestUri", .string(r.requestUri)), Field("acceptsJSON", .bool(r.acceptsJSON)),
            ],
            input: [Field("token", ""), Field("token_type", "")])
    }

    static func appIntegrity(challenge: String) -> Callback {
        Callback(
            type: .appIntegrity, output: [Field("challenge", .string(challenge))],
            input: ["token", "clientError", "keyId", "assert", "clientData"].map { Field($0, "") })
    }
}
