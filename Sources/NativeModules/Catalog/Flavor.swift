import NativeSDK

/// The platform contract the daemon stands in for (docs/flavors.md): which sample app's native
/// side answers, with its method names, result kinds and rejection texts.
public enum Flavor: String, CaseIterable, Sendable {
    case reactNativeIOS = "rn-ios"
    case reactNativeAndroid = "rn-android"
    case flutterIOS = "flutter-ios"
    case flutterAndroid = "flutter-android"

    public var platform: Platform {
        switch self {
        case .reactNativeIOS, .flutterIOS: return .ios
        case .reactNativeAndroid, .flutterAndroid: return .android
        }
    }

    /// The method that starts the SDK: the Flutter channel's is `frAuthStart` on both platforms
    /// (the Dart app sends it; Android's `MainActivity.kt` routes it to the Java `start()`).
    public var startMethod: String {
        switch self {
        case .reactNativeIOS, .reactNativeAndroid: return "start"
        case .flutterIOS, .flutterAndroid: return "frAuthStart"
        }
    }
}

/// Which sample bridge answers on Android: they differ in the step string they build and in how
/// `next` copies the payload's values onto the node.
enum AndroidVariant {
    /// React Native Android's Kotlin bridge (RN-D/E).
    case kotlin
    /// The Flutter Android plugin's Java bridge.
    case java
}

/// Which bridge of a platform: the latest sample app's, or the one the ForgeRock guide "build a
/// protected app with React Native" teaches (iOS only).
public enum BridgeVariant: String, CaseIterable, Sendable {
    case sample
    case guide
}
