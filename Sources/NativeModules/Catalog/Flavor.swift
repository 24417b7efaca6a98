/// The platform contract the daemon stands in for (docs/flavors.md): which sample app's native
/// side answers, with its method names, result kinds and rejection texts.
public enum Flavor: String, CaseIterable, Sendable {
    case reactNativeIOS = "rn-ios"
    case reactNativeAndroid = "rn-android"
    case flutterIOS = "flutter-ios"
    case flutterAndroid = "flutter-android"

    public enum Platform: Sendable { case ios, android }

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

/// Which generation of a platform's bridge: the latest sample app's. (The ForgeRock guide's
/// own bridge is the next variant to come.)
public enum BridgeVariant: String, CaseIterable, Sendable {
    case sample
}
