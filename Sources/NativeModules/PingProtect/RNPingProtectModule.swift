import AuthBridgeCore
import NativeSDK

/// `RNPingProtect`, the successor SDK's PingOne Protect TurboModule (`protect/src/NativeRNPingProtect.ts`;
/// native `protect/ios/RNPingProtectCommon.swift`, `protect/android/…/RNPingProtectCommon.kt`, over
/// the PingOne Signals SDK). The Signals SDK runs on the app's emulated phone, in memory as on a
/// device: `initialize(protectConfig, clientConfig)` configures and starts it (it always starts:
/// the emulated phone reaches no PingOne); `pauseBehavioralData`/`resumeBehavioralData` switch
/// behavioral collection. Every call takes `{loggerId?}` as its client config.
///
/// What differs by platform: before `initialize`, iOS rejects pause and resume (the Signals
/// shared instance does not exist yet: `Protect.pauseBehavioralData` throws), Android resolves.
/// `collectForDaVinci(davinciId, options, config)` fills the first PROTECT collector of a DaVinci
/// flow's current form (ping-ios `Protect/Protect/ProtectCollector.swift` `collect()`, ping-android
/// `protect/…/davinci/ProtectCollector.kt`): the Signals SDK is configured with the field's
/// `behavioralDataCollection` and started (a no-op once started), behavioral collection resumed or
/// paused to match, and its data becomes the collector's value, which `RNPingDavinci.next` sends
/// in `formData` under the field's key. `options` is read by neither platform (index 0 always).
///
/// Journeys: AM's PingOne Protect nodes send PingOneProtectInitializeCallback and
/// PingOneProtectEvaluationCallback, kept on the node (the protect package registers them with
/// the journey module). No RN package answers them: this module has no journey method, and the
/// journey module marks them `integration_required` (`journey/src/callbackHelpers.ts`) and refuses
/// a value for them (`JourneyCallbackValueApplier`, "requires additional native integration").
/// So JS submits them as received: empty `clientError` and `signals`, which AM reads as an SDK
/// that started and sent no signals.
public final class RNPingProtectModule: NativeModule {
    public let name = "RNPingProtect"
    public let namespace = "RNPingProtect"
    private let sdk: PingSDK
    private let loggers: PingLoggers
    private let davincis: PingDaVincis

    /// The phone's Signals SDK, once `initialize` ran.
    struct Signals: Equatable {
        var envId: String?
        var behavioralDataCollection: Bool

        /// `Protect.data()`: the Signals SDK's payload for PingOne Protect, opaque to the app. The
        /// emulated one is base64url JSON of what this phone's SDK knows, so a flow that receives
        /// it can read it back.
        func data(platform: Platform) -> String {
            var fields: JSONObject = [
                "sdk": "PingOneSignals", "platform": .string(platform.rawValue),
                "behavioralDataCollection": .bool(behavioralDataCollection),
            ]
            fields["envId"] = envId.map(JSONValue.string)
            return Base64URL.encode(Array(JSONWriter.compact(.object(fields)).utf8))
        }
    }

    private(set) var signals: Signals?

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        loggers = context.loggers
        davincis = context.davincis
        sdk.registerCallbacks([.pingOneProtectInitialize, .pingOneProtectEvaluation])
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("initialize") { args throws(BridgeError) in
                try Arguments.count("initialize", args, ["protectConfig", "clientConfig"])
                let config = try Arguments.reader(args, 0, "protectConfig")
                let logger = try self.logger(args, 1)
                self.loggers.log(logger, .info, "PingProtect", "Protect initialize requested")
                // As the natives cast: a value of another type is the default.
                let envId = config["envId"].asString.flatMap { $0.isEmpty ? nil : $0 }
                self.signals = Signals(
                    envId: envId, behavioralDataCollection: config["isBehavioralDataCollection"].asBool ?? true)
                self.loggers.log(logger, .debug, "PingProtect", "Protect initialize succeeded")
                return .null
            },
            NativeMethod("pauseBehavioralData") { args throws(BridgeError) in
                try self.behavioral(args, "pauseBehavioralData", collecting: false)
            },
            NativeMethod("resumeBehavioralData") { args throws(BridgeError) in
                try self.behavioral(args, "resumeBehavioralData", collecting: true)
            },
            NativeMethod("collectForDaVinci") { args throws(BridgeError) in try self.collectForDaVinci(args) },
        ]
    }

    private func collectForDaVinci(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("collectForDaVinci", args, ["davinciId", "options", "config"])
        let davinciId = try Arguments.string(args, 0, "davinciId")
        _ = try Arguments.object(args, 1, "options")
        let logger = try self.logger(args, 2)
        if davinciId.trimmingSpaces.isEmpty {
            throw PingRejection.reject(
                "PROTECT_COLLECTOR_NOT_FOUND", .argument, "DaVinci id must not be empty for Protect data collection.")
        }
        loggers.log(logger, .info, "PingProtect", "Protect collectForDaVinci requested for collector index 0")
        let notFound = "No active Protect collector found for DaVinci \(davinciId) at index 0."
        let found: Bool? = try davincis.updateNode(davinciId) { node throws(BridgeError) -> Bool in
            guard let position = node.collectors.firstIndex(where: { $0.kind == .protect }) else { return false }
            let field = node.collectors[position].field
            var current = signals ?? Signals(envId: nil, behavioralDataCollection: true)
            current.behavioralDataCollection = field["behavioralDataCollection"]?.boolValue ?? true
            signals = current
            node.collectors[position].value = .string(current.data(platform: sdk.platform))
            return true
        }
        guard let found else {
            loggers.log(logger, .warn, "PingProtect", "Protect collectForDaVinci collectors not found")
            // iOS: `resolveDaVinciCollectors` → nil; Android finds no collector either way.
            throw PingRejection.reject(
                "PROTECT_COLLECTOR_NOT_FOUND", .state,
                sdk.platform == .ios ? "No active DaVinci collectors found for id \(davinciId)." : notFound)
        }
        guard found else {
            loggers.log(logger, .warn, "PingProtect", "Protect collectForDaVinci collector not found at index 0")
            throw PingRejection.reject("PROTECT_COLLECTOR_NOT_FOUND", .state, notFound)
        }
        loggers.log(logger, .debug, "PingProtect", "Protect collectForDaVinci succeeded")
        return .null
    }

    private func behavioral(_ args: [JSONValue], _ method: String, collecting: Bool) throws(BridgeError) -> JSONValue {
        try Arguments.count(method, args, ["clientConfig"])
        let logger = try self.logger(args, 0)
        loggers.log(logger, .info, "PingProtect", "Protect \(method) requested")
        guard var current = signals else {
            guard sdk.platform == .android else {
                loggers.log(logger, .error, "PingProtect", "Protect \(method) failed")
                throw PingRejection.reject(
                    "PROTECT_COLLECT_ERROR", .auth, "PingOneSignals shared instance is not available")
            }
            return .null
        }
        current.behavioralDataCollection = collecting
        signals = current
        return .null
    }

    /// The client config's logger (`parseCallConfig`: a trimmed, non-empty string).
    private func logger(_ args: [JSONValue], _ position: Int) throws(BridgeError) -> String? {
        let config = try Arguments.reader(args, position, "clientConfig")
        return loggers.resolve(config["loggerId"].asString?.trimmingSpaces, platform: sdk.platform)
    }
}
