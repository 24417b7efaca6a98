import AuthBridgeCore

/// AM's PingOne Protect callbacks, outputs and inputs in AM's wire order (PingAM's callback
/// reference; the SDKs read them by name: ping-android-sdk
/// `protect/src/main/kotlin/com/pingidentity/protect/journey/PingOneProtectInitializeCallback.kt`
/// and `…/PingOneProtectEvaluationCallback.kt`).
extension Callback {
    /// What the Initialize node sends: the Signals SDK's settings. The client answers
    /// `IDToken1clientError`: "" once the SDK started, else why it did not.
    static func pingOneProtectInitialize(_ settings: ProtectSignalsSettings) -> Callback {
        Callback(
            type: .pingOneProtectInitialize,
            output: [
                Field("envId", .string(settings.envId)), Field("consoleLogEnabled", .bool(settings.consoleLogEnabled)),
                Field("deviceAttributesToIgnore", .array(settings.deviceAttributesToIgnore.map(JSONValue.string))),
                Field("customHost", .string(settings.customHost)), Field("lazyMetadata", .bool(settings.lazyMetadata)),
                Field("behavioralDataCollection", .bool(settings.behavioralDataCollection)),
                Field("deviceKeyRsyncIntervals", .int(Int64(settings.deviceKeyRsyncIntervals))),
                Field("enableTrust", .bool(settings.enableTrust)), Field("disableTags", .bool(settings.disableTags)),
                Field("disableHub", .bool(settings.disableHub)),
            ],
            input: [Field("clientError", "")])
    }

    /// What the Evaluation node sends: whether to pause behavioral data once the signals are
    /// taken. The client answers `IDToken1signals` (the Signals SDK's data) and
    /// `IDToken1clientError`.
    static func pingOneProtectEvaluation(pauseBehavioralData: Bool) -> Callback {
        Callback(
            type: .pingOneProtectEvaluation, output: [Field("pauseBehavioralData", .bool(pauseBehavioralData))],
            input: [Field("signals", ""), Field("clientError", "")])
    }
}

/// The Initialize node's settings of the Signals SDK, as its callback carries them.
struct ProtectSignalsSettings: Sendable, Equatable {
    var envId: String
    var consoleLogEnabled = false
    var deviceAttributesToIgnore: [String] = []
    var customHost = ""
    var lazyMetadata = false
    var behavioralDataCollection = true
    var deviceKeyRsyncIntervals = 14
    var enableTrust = false
    var disableTags = false
    var disableHub = false
}
