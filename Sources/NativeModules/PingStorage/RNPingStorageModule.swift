import AuthBridgeCore
import NativeSDK

/// `RNPingStorage`, the successor SDK's storage TurboModule (`storage/src/NativeRNPingStorage.ts`;
/// native `storage/ios/RNPingStorageCommon.swift`, `storage/android/…/RNPingStorageCommon.kt`).
/// Every method is synchronous on the device: `register…Storage(config)` stores the config as
/// the platform normalizes it and answers a registry id (a UUID, `SimpleRegistry`);
/// `configure…Storage(id)` answers that config. An unknown id is a thrown exception there (iOS
/// `NSInvalidArgumentException`, Android `IllegalStateException` from Kotlin's `error()`).
///
/// A host that must answer synchronously (the Node client) picks the id itself and passes it as
/// an extra last argument of a register call, as for `RNPingOidc.createClient`.
public final class RNPingStorageModule: NativeModule {
    public let name = "RNPingStorage"
    public let namespace = "RNPingStorage"
    private let sdk: PingSDK
    private let registry: StorageRegistry

    public init(sdk: PingSDK, registry: StorageRegistry) {
        self.sdk = sdk
        self.registry = registry
    }

    public var methods: [NativeMethod] {
        StorageRegistry.Kind.allCases.flatMap { kind in
            [
                NativeMethod("register\(kind.rawValue)Storage") { args throws(BridgeError) in
                    try self.register(args, kind)
                },
                NativeMethod("configure\(kind.rawValue)Storage") { args throws(BridgeError) in
                    try self.configure(args, kind)
                },
            ]
        }
    }

    func register(_ args: [JSONValue], _ kind: StorageRegistry.Kind) throws(BridgeError) -> JSONValue {
        let method = "register\(kind.rawValue)Storage"
        try Arguments.count(method, args, ["config", "storageId"], optional: 1)
        let config = try Arguments.reader(args, 0, "config")
        let id = try Arguments.chosenId(args, position: 1, sdk: sdk, taken: registry.contains)
        registry.register(
            StorageConfigNormalizer.normalize(config, kind: kind, platform: sdk.platform), kind: kind, id: id)
        return .string(id)
    }

    func configure(_ args: [JSONValue], _ kind: StorageRegistry.Kind) throws(BridgeError) -> JSONValue {
        let method = "configure\(kind.rawValue)Storage"
        try Arguments.count(method, args, ["storageId"])
        let id = try Arguments.string(args, 0, "storageId")
        guard let config = registry.config(kind, id: id) else {
            // `StorageConfigRegistry.resolve` / `resolveConfig`; OATH has its own text on both.
            let message =
                kind == .oath
                ? "No OATH storage config registered for id=\(id)" : "No storage config registered for id=\(id)"
            let exception = sdk.platform == .ios ? "NSInvalidArgumentException" : "IllegalStateException"
            throw .rejection(code: exception, message: message, detail: nil)
        }
        return .object(config)
    }
}

/// How each platform turns the flat JS config into the config it keeps (and `configure…` returns).
enum StorageConfigNormalizer {
    /// Reads as the native modules cast (`as? String`, `optString`): a value of another type is absent.
    static func normalize(
        _ config: JSONReader<JSONReadError>, kind: StorageRegistry.Kind, platform: Platform
    ) -> JSONObject {
        var result: JSONObject = [:]
        func copy(_ key: String, as name: String? = nil, bool: Bool = false) {
            if bool {
                if let flag = config[key].asBool { result[name ?? key] = .bool(flag) }
            } else if let text = config[key].asString {
                result[name ?? key] = .string(text)
            }
        }
        switch (platform, kind) {
        case (.ios, .oath):
            // `buildOathStorageConfig`: the oath-prefixed keys, returned without the prefix.
            copy("oathService", as: "service")
            copy("oathRequireBiometrics", as: "requireBiometrics", bool: true)
            copy("oathRequireDevicePasscode", as: "requireDevicePasscode", bool: true)
            copy("oathBiometricPrompt", as: "biometricPrompt")
            copy("oathAccessGroup", as: "accessGroup")
        case (.ios, _):
            // `buildStorageConfig`: account and encryptor get defaults, cacheable stays optional.
            copy("cacheable", bool: true)
            result["account"] = .string(config["account"].asString ?? "com.pingidentity.rnstorage.storage")
            result["encryptor"] = .bool(config["encryptor"].asBool ?? true)
        case (.android, .oath):
            // `registerOathStorage` reads `databaseName` only (the JS sends `fileName`, which it ignores).
            copy("databaseName")
        case (.android, _):
            result["keyAlias"] = .string(config["keyAlias"].asString ?? "com.pingidentity.rnstorage.storage")
            result["fileName"] = .string(config["fileName"].asString ?? "secure_prefs")
            copy("strongBoxPreferred", bool: true)
            copy("cacheStrategy")
        }
        return result
    }
}
