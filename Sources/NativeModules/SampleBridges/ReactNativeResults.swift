import AuthBridgeCore
import NativeSDK

/// What each React Native platform resolves (RN-E's and RN-D's bridges, docs/flavors.md): iOS a step *string*,
/// success an object with pretty-printed Apple-encoded tokens, user info as it came; Android
/// Gson strings, success with `sessionToken`, user info as a WritableMap.
struct ReactNativeResults: Sendable {
    let step: @Sendable (Node) -> JSONValue
    let success: @Sendable (AccessToken) -> JSONValue
    let userInfo: @Sendable (JSONValue) -> JSONValue
    /// The token's JSON text, which `getAccessToken` resolves as a string.
    let accessToken: @Sendable (AccessToken) -> String

    func outcome(_ outcome: AuthSDK.JourneyOutcome) -> JSONValue {
        switch outcome {
        case .step(let node): return step(node)
        case .success(let token): return success(token)
        }
    }

    static let ios = ReactNativeResults(
        step: { .string(StepJSON.ios($0)) },
        success: { ["type": "LoginSuccess", "tokens": .string(StepJSON.applePretty.string($0.iosJSON))] },
        userInfo: { $0 },
        accessToken: { StepJSON.apple.string($0.iosJSON) })

    static func android(realm: String) -> ReactNativeResults {
        ReactNativeResults(
            step: { .string(StepJSON.android($0, variant: .kotlin)) },
            success: {
                ["type": "LoginSuccess", "sessionToken": .string(StepJSON.gson.string($0.androidJSON(realm: realm)))]
            },
            userInfo: writableMap,
            accessToken: { StepJSON.gson.string($0.androidJSON(realm: realm)) })
    }

    /// `UserInfo.raw` turned into a WritableMap: objects and arrays kept, Boolean/Integer/Double/
    /// String kept, a Long (outside Int32) and JSON null become strings.
    static func writableMap(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): return .object(JSONObject(object.members.map { ($0.key, writableMap($0.value)) }))
        case .array(let list): return .array(list.map(writableMap))
        case .null: return "null"
        case .int(let i) where i < Int64(Int32.min) || i > Int64(Int32.max): return .string(String(i))
        default: return value
        }
    }
}
