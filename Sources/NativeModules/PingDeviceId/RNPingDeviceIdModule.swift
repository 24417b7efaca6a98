import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// `RNPingDeviceId` (`device-id/src/NativeRNPingDeviceId.ts`; native
/// `device-id/ios/RNPingDeviceIdImpl.swift`, `device-id/android/…/RNPingDeviceIdCommon.kt`):
/// `getDefaultDeviceId()` resolves the default device identifier. Both native SDKs derive it the
/// same way: the lower-case hex SHA-256 of the public key of an RSA key pair made once and kept
/// on the device (ping-ios `DeviceId/DefaultDeviceIdentifier.swift` in the keychain; ping-android
/// `foundation/device/device-id/…/DefaultDeviceIdentifier.kt` in the Android KeyStore), so it is
/// stable across calls and launches. AuthBridge does not make RSA keys: the identifier key is the
/// app phone's fixed random token with the platform's name, hashed the same way, so it is 64
/// hex digits, the same for every call and across restarts with `--state-dir`, and different on
/// `rn-ios` and `rn-android` as two phones' keys would be. It never rejects here (the native
/// `DEVICE_ID_ERROR` comes from a keychain or KeyStore failure).
public final class RNPingDeviceIdModule: NativeModule {
    public let name = "RNPingDeviceId"
    public let namespace = "RNPingDeviceId"
    private let sdk: PingSDK
    private let device: DeviceAnswers

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        device = context.device
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("getDefaultDeviceId") { args throws(BridgeError) in
                try Arguments.none("getDefaultDeviceId", args)
                return .string(Self.identifier(self.device.phones.appPhone(), platform: self.sdk.platform))
            }
        ]
    }

    /// The default device identifier of `phone` on `platform` (also what a DeviceProfileCallback
    /// sends as `identifier`: both SDKs' `DeviceProfileConfig` use the default identifier).
    static func identifier(_ phone: Phone, platform: Platform) -> String {
        SHA256.hash(Array("\(platform.rawValue) device identifier key \(phone.deviceToken)".utf8)).hexString
    }
}
