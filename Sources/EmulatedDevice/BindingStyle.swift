import AuthBridgeCore

/// Which SDK's device-binding module made a key and answers with it: the key it makes, the JWS
/// it signs, how many PIN prompts a bind shows. The old SDK's doors (the sample bridges' complete
/// mode, `emulator.answerBinding`) answer as forgerock-ios-sdk `FRDeviceBinding`; the successor
/// SDK's `RNPingBinding` as ping-ios-sdk `PingBinding` or ping-android-sdk `binding`, per platform.
public enum BindingStyle: String, Sendable, CaseIterable {
    /// forgerock-ios-sdk `FRDeviceBinding` (`DeviceBindingAuthenticators.swift`): P-256, ES256,
    /// `typ: JWS`, the JWK only when binding, `platform: ios` only when binding.
    case forgeRockIOS = "forgerock-ios"
    /// ping-ios-sdk `Binding/Binding/Authenticator/DefaultDeviceAuthenticator.swift` and
    /// `Commons/Commons/Util/CompactJwt.swift`: P-256, ES256, header `typ`, `alg`, `kid` and the
    /// JWK on both bind and sign, `platform: ios` in both.
    case pingIOS = "ping-ios"
    /// ping-android-sdk `mfa/binding/…/authenticator/DeviceAuthenticator.kt`: RSA 2048 (`CryptoKey.kt`),
    /// RS512 unless the app asks for another; binding puts the RSA JWK (`use: sig`, `kid`, `alg`) in
    /// the header and claims `platform: android` and `android-version`; signing names only `kid`.
    case pingAndroid = "ping-android"

    /// The Android API level the emulated phone reports (`Build.VERSION.SDK_INT`).
    public static let androidVersion: Int64 = 34

    var usesRSA: Bool { self == .pingAndroid }

    /// PIN prompts a bind with `APPLICATION_PIN` shows: ping-ios `AppPinAuthenticator` asks at
    /// `register` and again at `authenticate`; ping-android's `register` keeps the key pair for
    /// `authenticate`, so one; the old SDK's, one.
    var pinPromptsAtBind: Int { self == .pingIOS ? 2 : 1 }

    /// A new key id: ping-ios uses the key tag (`UUID().uuidString`, upper case), the others a
    /// lower-case UUID (`UUID.randomUUID()`).
    func newKeyId(_ random: RandomSource) -> String {
        self == .pingIOS ? random.uuid().uppercased() : random.uuid().lowercased()
    }
}
