import AuthBridgeCore
import NativeSDK

/// `RNPingLogger`, the successor SDK's logger TurboModule (`logger/src/NativeRNPingLogger.ts`;
/// native `logger/ios/RNPingLoggerImpl.swift`, `logger/android/…/RNPingLoggerCommon.kt`). The JS
/// reaches it as `TurboModuleRegistry.get('Logger')` (the iOS class exported is `Logger`) or
/// `NativeModules.RNPingLoggerClassic`. Both methods are synchronous on the device:
/// `registerLogger({level})` answers a registry id (an unknown level is NONE), `syncLogger({id,
/// level})` changes that logger's level and answers nothing; an unknown id or level is ignored
/// (a line in the system log, here a warning on stderr).
///
/// A host that must answer synchronously (the Node client) picks the id itself and passes it as
/// an extra last argument of `registerLogger`, as for `RNPingStorage`.
public final class RNPingLoggerModule: NativeModule {
    public let name = "RNPingLogger"
    public let namespace = "RNPingLogger"
    private let sdk: PingSDK
    private let loggers: PingLoggers

    public init(sdk: PingSDK, loggers: PingLoggers) {
        self.sdk = sdk
        self.loggers = loggers
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("registerLogger") { args throws(BridgeError) in
                try Arguments.count("registerLogger", args, ["config", "loggerId"], optional: 1)
                let config = try Arguments.reader(args, 0, "config")
                let id = try Arguments.chosenId(args, position: 1, sdk: self.sdk, taken: self.loggers.contains)
                self.loggers.register(config["level"].asString.flatMap(PingLoggers.Level.init) ?? .none, id: id)
                return .string(id)
            },
            NativeMethod("syncLogger") { args throws(BridgeError) in
                try Arguments.count("syncLogger", args, ["config"])
                let config = try Arguments.reader(args, 0, "config")
                guard let id = config["id"].asString, !id.isEmpty,
                    let level = config["level"].asString.flatMap(PingLoggers.Level.init)
                else {
                    logWarn("RNPingLogger: Logger sync request ignored because the log level is unsupported")
                    return .null
                }
                if !self.loggers.sync(id, to: level) {
                    logWarn("RNPingLogger: Logger sync request ignored because the logger could not be resolved")
                }
                return .null
            },
        ]
    }
}
