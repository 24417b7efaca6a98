import AuthBridgeCore
import NativeSDK

extension JourneyCallbackMapper {
    /// IdPCallback and SelectIdPCallback, registered by `RNPingExternalIdp`: JS sees them as
    /// `IdpCallback` and `SelectIdpCallback` (iOS `JourneyNodeMapper.callbackType` renames AM's
    /// types; Android prints the classes' simple names, `IdpCallback`/`SelectIdpCallback`) with
    /// `raw` and nothing else: neither mapper has a case for them. JS reads `raw` for the providers.
    static func mapIdP(_ callback: PingCallback, into p: inout JSONObject) {
        p["type"] = .string(JourneyCallbackValueApplier.normalized(callback.type.rawValue))
    }
}
