import AuthBridgeCore

/// What `FRDeviceCollector` gathers when a DeviceProfileCallback runs natively: a device
/// identifier that stays the same for the app's life, platform and hardware metadata, and a
/// location. The values describe one fixed emulated phone, so transcripts replay byte for byte.
public struct DeviceProfileCollector {
    public let platform: Platform
    /// Asked for only when a profile is collected: drawing it earlier would shift every random
    /// value after it for apps that never collect one.
    private let identifier: () -> String

    public init(platform: Platform, identifier: @escaping () -> String) {
        self.platform = platform
        self.identifier = identifier
    }

    /// The JSON string the SDK sets as the callback's value (`{identifier, metadata?, location?}`).
    public func profile(metadata: Bool, location: Bool) -> String {
        var profile: JSONObject = ["identifier": .string(identifier())]
        if metadata { profile["metadata"] = platform == .ios ? Self.iosMetadata : Self.androidMetadata }
        if location { profile["location"] = ["latitude": 51.5072, "longitude": -0.1276] }
        return JSONWriter.compact(.object(profile))
    }

    /// The phone's metadata by collector (`platform`, `hardware`, `browser`, `bluetooth`,
    /// `network`, `telephony`): the successor SDK's collectors describe the same phone.
    public static func metadata(_ platform: Platform) -> JSONObject {
        (platform == .ios ? iosMetadata : androidMetadata).objectValue ?? [:]
    }

    private static let iosMetadata: JSONValue = [
        "platform": [
            "platform": "iOS", "version": "17.5", "device": "iPhone", "deviceName": "AuthBridge iPhone",
            "model": "iPhone15,2",
            "brand": "Apple", "locale": "en_US", "timeZone": "Europe/London", "jailBreakScore": 0,
        ],
        "hardware": [
            "cpu": 6, "manufacturer": "Apple", "memory": 6144, "multitaskSupport": true,
            "display": ["width": 1179, "height": 2556, "orientation": 1], "camera": ["numberOfCameras": 3],
        ],
        "browser": ["userAgent": "AuthBridge/0.1 CFNetwork/1496.0.7 Darwin/23.5.0"],
        "bluetooth": ["supported": true],
        "network": ["connected": true],
        "telephony": ["carrierName": "Unknown", "networkCountryIso": "Unknown"],
    ]

    private static let androidMetadata: JSONValue = [
        "platform": [
            "platform": "Android", "version": 34, "device": "generic", "deviceName": "AuthBridge Android",
            "model": "Pixel 8",
            "brand": "google", "locale": "en_US", "timeZone": "Europe/London", "jailBreakScore": 0,
        ],
        "hardware": [
            "hardware": "ranchu", "manufacturer": "Google", "storage": 5939, "memory": 2007, "cpu": 4,
            "display": ["width": 1080, "height": 2400, "orientation": 1], "camera": ["numberOfCameras": 2],
        ],
        "browser": ["userAgent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AuthBridge/0.1"],
        "bluetooth": ["supported": true],
        "network": ["connected": true],
        "telephony": ["networkCountryIso": "us", "carrierName": "Android"],
    ]
}
