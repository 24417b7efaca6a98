import AuthBridgeCore
import IdentityServer

/// What the trace and the inspector's timeline may show of a message: everything but secrets. A value is hidden by the key
/// that holds it (passwords, tokens, codes, cookies, authIds…, and any key whose name has
/// `secret`, `password` or `token` in it, whatever the value's shape), by the callback it belongs
/// to (every input of a callback that may carry a secret, the outputs of hidden values and
/// scripts), and by its shape (a JWT, an `otpauth://` URI). Strings that hold JSON (a step, a
/// `next` payload, an AccessToken) are redacted inside and kept as strings, so the trace still
/// shows which results are strings. It fails closed: what looks like JSON but cannot be read (a
/// bad escape, nesting past the parser's limit), and any `next` payload that is not JSON, is
/// replaced whole by `unreadable(_:)`, never shown as it came.
public enum Redaction {
    public static let marker = "[redacted]"

    /// What stands for a payload the trace cannot read: its size only.
    public static func unreadable(_ text: String) -> String {
        "<unreadable payload, \(text.utf8.count) bytes, redacted>"
    }

    /// Keys whose values are secrets wherever they appear (compared lowercased).
    public static let secretKeys: Set<String> = [
        "password", "newpassword", "oldpassword", "currentpassword", "answer",
        "accesstoken", "refreshtoken", "idtoken", "sessiontoken", "subjecttoken", "token", "ssotoken",
        "authid", "code", "otp", "cookie", "secret", "clientsecret", "authorization",
        "suspendedid", "resumeuri", "sharedsecret", "set-cookie", "code_verifier",
    ]

    /// Parts of a key's name that make its value a secret, known key or not (lowercased).
    public static let secretKeyParts = ["secret", "password", "token"]

    public static func isSecretKey(_ lowercased: String) -> Bool {
        secretKeys.contains(lowercased) || secretKeyParts.contains { lowercased.contains($0) }
    }

    /// Callback types whose inputs are not secrets (a username, a choice, a consent); every
    /// other type's input values are hidden.
    public static let visibleInputTypes: Set<CallbackType> = [
        .name, .validatedCreateUsername, .choice, .confirmation, .booleanAttributeInput, .termsAndConditions,
        .consentMapping, .pollingWait, .selectIdP, .numberAttributeInput, .metadata,
    ]

    /// Methods whose every argument is a secret.
    public static let secretParamsMethods: Set<String> = ["exchangeToken"]

    /// Methods whose string arguments are step payloads: JSON, or unreadable.
    public static let payloadMethods: Set<String> = ["next"]

    public static func params(of method: String, _ params: JSONValue?) -> JSONValue? {
        guard let params else { return nil }
        if secretParamsMethods.contains(method), case .array(let list) = params {
            return .array(list.map { _ in .string(marker) })
        }
        let bareName = method.split(separator: ".").last.map(String.init) ?? method
        if payloadMethods.contains(bareName), case .array(let list) = params {
            return .array(
                list.map { argument in
                    guard case .string(let text) = argument else { return value(argument) }
                    return .string(payload(text))
                })
        }
        return value(params)
    }

    /// A value with its secrets replaced by the marker. `inError` keeps an error's `code`.
    public static func value(_ value: JSONValue, inError: Bool = false) -> JSONValue {
        switch value {
        case .string(let text): return .string(string(text))
        case .array(let list): return .array(list.map { self.value($0) })
        case .object(let object): return .object(self.object(object, inError: inError))
        case .null, .bool, .int, .double: return value
        }
    }

    /// A secret's value, whatever its shape: only `null` and booleans (which carry no secret) stay.
    public static func hidden(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null, .bool: return value
        case .string, .int, .double, .array, .object: return .string(marker)
        }
    }

    private static func object(_ object: JSONObject, inError: Bool) -> JSONObject {
        // Anything with inputs or outputs is read as a callback, a type it does not know included
        // (its inputs are then hidden).
        if object["input"] != nil || object["output"] != nil {
            return callback(object, type: object["type"]?.stringValue ?? "")
        }
        var members: [(String, JSONValue)] = []
        for member in object.members {
            let key = member.key.lowercased()
            // A `value` is shown only as a callback's input or output (`pairs`), never elsewhere:
            // a `{name, value}` pair outside a callback is one whose callback the trace cannot read.
            var secret = isSecretKey(key) || key == "value"
            if key == "code" && inError { secret = false }
            let shown: JSONValue
            if secret {
                shown = hidden(member.value)
            } else if key == "callbacks", case .array(let entries) = member.value {
                // A callback that is not an object is not one the trace can read.
                shown = .array(entries.map { $0.objectValue == nil ? hidden($0) : value($0) })
            } else {
                shown = value(member.value, inError: key == "error" || (inError && key == "data"))
            }
            members.append((member.key, shown))
        }
        return JSONObject(members)
    }

    /// A journey callback: inputs hidden unless the type is known to carry no secret (a type
    /// AuthBridge does not know may carry one); the outputs of hidden values and scripts hidden.
    /// Hidden inputs or outputs in a shape other than AM's (an array of `{name, value}`) are
    /// hidden whole.
    private static func callback(_ object: JSONObject, type name: String) -> JSONObject {
        let type = CallbackType(rawValue: name)
        let showInputs = type.map(visibleInputTypes.contains) ?? false
        let isScript =
            object["output"]?.arrayValue?.contains {
                $0["name"] == "messageType" && ($0["value"] == "4" || $0["value"] == 4)
            } == true
        let hideOutputs = type == .hiddenValue || (type == .textOutput && isScript)
        var members: [(String, JSONValue)] = []
        for member in object.members {
            let shown: JSONValue
            if member.key == "input" || member.key == "output" {
                let hide = member.key == "input" ? !showInputs : hideOutputs
                shown = pairs(member.value, hide: hide)
            } else if isSecretKey(member.key.lowercased()) || member.key == "value" {
                shown = hidden(member.value)
            } else {
                shown = value(member.value)
            }
            members.append((member.key, shown))
        }
        return JSONObject(members)
    }

    /// A callback's inputs or outputs: `{name, value}` pairs. With `hide`, every value but a
    /// `validateOnly` flag and a `messageType` is hidden; a pair's other members too; and a shape
    /// that is not an array of objects is hidden whole. A pair whose name says password or
    /// secret is hidden either way.
    private static func pairs(_ list: JSONValue, hide: Bool) -> JSONValue {
        guard case .array(let entries) = list else { return hide ? hidden(list) : value(list) }
        return .array(
            entries.map { entry in
                guard case .object(let pair) = entry else { return hide ? hidden(entry) : value(entry) }
                let name = pair["name"]?.stringValue ?? ""
                let loweredName = name.lowercased()
                let secretName = loweredName.contains("password") || loweredName.contains("secret")
                let keep = !(hide || secretName) || name.hasSuffix("validateOnly") || name == "messageType"
                var members: [(String, JSONValue)] = []
                for member in pair.members {
                    if member.key == "name", member.value.stringValue != nil {
                        members.append((member.key, member.value))
                    } else {
                        members.append(
                            (
                                member.key,
                                keep && !isSecretKey(member.key.lowercased())
                                    ? value(member.value) : hidden(member.value)
                            ))
                    }
                }
                return .object(JSONObject(members))
            })
    }

    /// A string: JSON inside is redacted and re-encoded; a JWT or an otpauth URI is hidden; what
    /// looks like JSON (it starts with `{` or `[`, or has a `{` in it) but cannot be read is
    /// unreadable.
    public static func string(_ text: String) -> String {
        if looksSecret(text) { return marker }
        let first = text.utf8.first { $0 != 0x20 && $0 != 0x0A && $0 != 0x09 && $0 != 0x0D }
        let opensJSON = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        guard opensJSON || text.utf8.contains(UInt8(ascii: "{")) else { return text }
        return payload(text)
    }

    /// A payload: its JSON redacted and re-encoded, or, when it is not JSON the parser can read
    /// (within its nesting limit), `unreadable(_:)`; a bare JSON string or number is hidden.
    public static func payload(_ text: String) -> String {
        if looksSecret(text) { return marker }
        guard let parsed = try? JSONParser.parse(text) else { return unreadable(text) }
        switch parsed {
        case .object, .array: return JSONWriter.compact(value(parsed))
        // Not a step: a bare string or number may be the secret itself.
        case .string, .int, .double: return marker
        case .null, .bool: return text
        }
    }

    public static func looksSecret(_ text: String) -> Bool {
        if text.contains("otpauth://") { return true }
        // A JWT (header.payload.signature, the header always starting {"… in base64url).
        return text.hasPrefix("eyJ") && text.utf8.lazy.filter { $0 == UInt8(ascii: ".") }.count >= 2
    }
}
