import AuthBridgeCore
import IdentityServer

extension PingCallback {
    /// The class a callback becomes: a MetadataCallback whose `data` describes a WebAuthn
    /// ceremony becomes the FIDO package's callback when the app links it (ping-ios
    /// `Journey/Callbacks/MetadataCallback.swift` `initialize(with:)`, ping-android
    /// `journey/…/callback/MetadataCallback.kt` `init(jsonObject)`): `_action`
    /// `webauthn_registration` / `webauthn_authentication` (AM 7.1 and later), else `_type`
    /// `WebAuthn` with `pubKeyCredParams` (registration) or `allowCredentials` (authentication).
    /// Without the package it stays a MetadataCallback.
    static func specialized(_ type: CallbackType, raw: JSONValue, extensions: Set<CallbackType>) -> CallbackType {
        guard type == .metadata,
            case .object(let data)? = raw["output"]?.arrayValue?.first(where: { $0["name"] == "data" })?["value"],
            let fido = fidoType(data), extensions.contains(fido)
        else { return type }
        return fido
    }

    /// The FIDO callback type AM's WebAuthn metadata stands for, if any.
    public static func fidoType(_ data: JSONObject) -> CallbackType? {
        switch data["_action"]?.stringValue {
        case "webauthn_registration": return .fidoRegistration
        case "webauthn_authentication": return .fidoAuthentication
        default: break
        }
        guard data["_type"] == .string("WebAuthn") else { return nil }
        if data["pubKeyCredParams"] != nil || data["_pubKeyCredParams"] != nil { return .fidoRegistration }
        if data["allowCredentials"] != nil || data["_allowCredentials"] != nil { return .fidoAuthentication }
        return nil
    }
}
