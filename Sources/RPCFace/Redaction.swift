import AuthBridgeCore
import IdentityServer

/// What the trace may show of a message: everything but secrets. A value is hidden by the key
/// that holds it (passwords, tokens, codes, cookies, authIds…), by the callback it belongs to
/// (every input of a callback that may carry a secret, the outputs of hidden values and
/// scripts), and by its shape (a JWT, an `otpauth://` URI). Strings that hold JSON (a step, a
/// `next` payload, an AccessToken) are redacted inside and kept as strings, so the trace still
/// shows which results are strings.
enum Redaction {
    static let marker = "[redacted]"

    /// Keys whose values are secrets wherever they appear (compared lowercased).
    static let secretKeys: Set<String> = [
        "password", "newpassword", "oldpassword", "currentpassword", "answer",
        "accesstoken", "refreshtoken", "idtoken", "sessiontoken", "subjecttoken", "token", "ssotoken",
        "authid", "code", "otp", "cookie", "secret", "clientsecret", "authorization",
        "suspendedid", "resumeuri", "sharedsecret",
    ]

    /// Callback types whose inputs are not secrets (a username, a choice, a consent); every
    /// other type's input values are hidden.
    static let visibleInputTypes: Set<CallbackType> = [
        .name, .validatedCreateUsername, .choice, .confirmation, .booleanAttributeInput, .termsAndConditions,
        .consentMapping, .pollingWait, .selectIdP, .numberAttributeInput, .metadata,
    ]

    /// Methods whose every argument is a secret.
    static let secretParamsMethods: Set<String> = ["exchangeToken"]

    static func params(of method: String, _ params: JSONValue?) -> JSONValue? {
        guard let params else { return nil }
        if secretParamsMethods.contains(method), case .array(let list) = params {
            return .array(list.map { _ in .string(marker) })
        }
        return value(params)
    }

    /// A value with its secrets replaced by the marker. `inError` keeps an error's `code`.
    static func value(_ value: JSONValue, inError: Bool = false) -> JSONValue {
        switch value {
        case .string(let text): return .string(string(text))
        case .array(let list): return .array(list.map { self.value($0) })
        case .object(let object): return .object(self.object(object, inError: inError))
        case .null, .bool, .int, .double: return value
        }
    }

    private static func object(_ object: JSONObject, inError: Bool) -> JSONObject {
        if let type = object["type"]?.stringValue, object["input"] != nil || object["output"] != nil {
            return callback(object, type: type)
        }
        let isNameValuePair = object["name"] != nil
        var members: [(String, JSONValue)] = []
        for member in object.members {
            let key = member.key.lowercased()
            var secret = secretKeys.contains(key) || (key == "value" && !isNameValuePair)
            if key == "code" && inError { secret = false }
            let shown: JSONValue
            if secret && !member.value.isNull {
                shown = .string(marker)
            } else {
                shown = value(member.value, inError: key == "error" || (inError && key == "data"))
            }
            members.append((member.key, shown))
        }
        return JSONObject(members)
    }

    /// A journey callback: inputs hidden unless the type is known to carry no secret (a type
    /// AuthBridge does not know may carry one); the outputs of hidden values and scripts hidden.
    private static func callback(_ object: JSONObject, type name: String) -> JSONObject {
        let type = CallbackType(rawValue: name)
        let showInputs = type.map(visibleInputTypes.contains) ?? false
        let isScript = object["output"]?.arrayValue?.contains {
            $0["name"] == "messageType" && ($0["value"] == "4" || $0["value"] == 4)
        } == true
        let hideOutputs = type == .hiddenValue || (type == .textOutput && isScript)
        var members: [(String, JSONValue)] = []
        for member in object.members {
            var shown = value(member.value)
            if case .array(let entries) = member.value, member.key == "input" || member.key == "output" {
                let hide = member.key == "input" ? !showInputs : hideOutputs
                shown = .array(entries.map { entry in
                    guard case .object(var pair) = entry else { return value(entry) }
                    let name = pair["name"]?.stringValue ?? ""
                    if let inner = pair["value"], !inner.isNull {
                        let keep = !hide || name.hasSuffix("validateOnly") || name == "messageType"
                        pair["value"] = keep ? value(inner) : .string(marker)
                    }
                    return .object(pair)
                })
            }
            members.append((member.key, shown))
        }
        return JSONObject(members)
    }

    /// A string: JSON inside is redacted and re-encoded; a JWT or an otpauth URI is hidden.
    static func string(_ text: String) -> String {
        if looksSecret(text) { return marker }
        guard let first = text.utf8.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 }),
              first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else { return text }
        guard let parsed = try? JSONParser.parse(text) else { return text }
        return JSONWriter.compact(value(parsed))
    }

    static func looksSecret(_ text: String) -> Bool {
        if text.contains("otpauth://") { return true }
        // A JWT (header.payload.signature, the header always starting {"… in base64url).
        return text.hasPrefix("eyJ") && text.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count >= 2
    }
}
