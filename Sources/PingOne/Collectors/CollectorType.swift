import AuthBridgeCore
import EmbeddedAM

/// What a field's value is to the server: a value the client sends back in `formData`, an action
/// (a button: its key comes back as `actionKey`), or something only shown.
enum CollectorKind: Sendable {
    case value, action, display
}

/// One kind of form field, by the `type` names the SDKs' collector factories register
/// (ping-ios-sdk `Davinci/Davinci/collector/*`, ping-javascript-sdk
/// `packages/davinci-client/src/lib/collector.types.ts`). A new collector is a file here and a
/// line in `CollectorRegistry.types`; the engine never switches on a type's name.
protocol CollectorType: Sendable {
    /// The field `type`s it reads.
    var names: [String] { get }
    var kind: CollectorKind { get }
    /// The `inputType` a field of a given `type` carries when the flow gives none: the native SDKs
    /// look a collector up by `inputType` before `type`, and ping-android-sdk registers only
    /// `SINGLE_SELECT`, `MULTI_SELECT` and `ACTION` for the select fields and flow buttons
    /// (`davinci/.../CollectorRegistry.kt`; ping-ios-sdk `DavinciPlugin/CollectorFactory.swift`).
    var inputTypes: [String: String] { get }
    /// The field as the client gets it, filled from what the flow knows of the user (a device
    /// list); most fields are sent as the flow file gives them.
    func render(_ field: JSONObject, for user: RenderContext) -> JSONObject
    /// What is wrong with a submitted value, as PingOne details it (`{code, target, message}`);
    /// empty when it is acceptable. Only a submit is checked: a flow button's action is not.
    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail]
    /// Members the field adds to the form's answer beside `form` (a password policy).
    func extras(_ field: JSONObject) -> JSONObject
}

extension CollectorType {
    var inputTypes: [String: String] { [:] }

    func render(_ field: JSONObject, for user: RenderContext) -> JSONObject {
        guard field["inputType"] == nil, let type = field["type"]?.stringValue, let input = inputTypes[type] else {
            return field
        }
        var rendered = field
        rendered["inputType"] = .string(input)
        return rendered
    }
    func extras(_ field: JSONObject) -> JSONObject { [:] }

    /// A required field left empty: PingOne's `INVALID_VALUE` for the field.
    func missing(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] {
        guard field["required"]?.boolValue == true else { return [] }
        let empty: Bool
        switch value {
        case nil, .null: empty = true
        case .string(let text): empty = text.isEmpty
        case .array(let list): empty = list.isEmpty
        default: empty = false
        }
        guard empty else { return [] }
        let label = field["label"]?.stringValue ?? key
        return [ErrorDetail(code: "INVALID_VALUE", target: key, message: "\(label) is required")]
    }

    /// A value of the wrong JSON type.
    func wrongType(_ key: String, wanted: String) -> [ErrorDetail] {
        [ErrorDetail(code: "INVALID_VALUE", target: key, message: "\(key) must be \(wanted)")]
    }
}

/// What a form can show of the user the flow has found so far.
struct RenderContext {
    var username: String?
    var email: String?
    var phone: String?
    /// The user's authenticator app devices (the directory's OATH devices, which AM's face shares).
    var oathDevices: [OathDeviceProfile] = []
    /// The TOTP device being registered, whose URI a `QR_CODE` field shows.
    var pendingDevice: PendingDevice?
}

/// The collector types, by name.
enum CollectorRegistry {
    static let types: [any CollectorType] = [
        TextCollector(), PasswordCollector(), ButtonCollector(), LabelCollector(), SingleSelectCollector(),
        MultiSelectCollector(), PhoneNumberCollector(), DeviceRegistrationCollector(),
        DeviceAuthenticationCollector(), QrCodeCollector(), IdpCollector(), ProtectCollector(),
    ]

    private static let byName: [String: any CollectorType] = Dictionary(
        types.flatMap { type in type.names.map { ($0, type) } }, uniquingKeysWith: { first, _ in first })

    static func type(named name: String) -> (any CollectorType)? { byName[name] }

    static var names: [String] { types.flatMap(\.names) }
}
