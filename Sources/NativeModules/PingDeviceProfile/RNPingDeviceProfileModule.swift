import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// `RNPingDeviceProfile` (`device-profile/src/NativeRNPingDeviceProfile.ts`; native
/// `device-profile/ios/RNPingDeviceProfileCommon.swift`, `device-profile/android/…/RNPingDeviceProfileCommon.kt`):
/// the app phone's profile (`DeviceProfileCollector.metadata`, the phone the old SDK's
/// DeviceProfileCallback describes) by collector name: `platform`, `hardware`, `network`,
/// `telephony`, `browser`, `bluetooth`, `location`; other names and non-strings are skipped.
/// `collectDeviceProfileForJourney` runs the current node's DeviceProfileCallback: the value it
/// sets (AM's input) is the profile JSON the SDK's `DeviceProfileCollector` writes,
/// `{identifier, metadata?, location?, version: "1.0"}` (ping-ios
/// `DeviceProfile/DeviceProfileCallback.swift`, ping-android `foundation/device/device-profile/…/DeviceProfileCallback.kt`),
/// with `metadata` only when AM asks for it and a metadata collector was named, `location` only
/// when AM asks for it and `location` was named. `identifier` is RNPingDeviceId's identifier.
public final class RNPingDeviceProfileModule: NativeModule {
    public let name = "RNPingDeviceProfile"
    public let namespace = "RNPingDeviceProfile"
    private let sdk: PingSDK
    private let journeys: PingJourneys
    private let device: DeviceAnswers
    private var platform: Platform { sdk.platform }

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        journeys = context.journeys
        device = context.device
        context.sdk.registerCallbacks([.deviceProfile])
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("collectDeviceProfile") { args throws(BridgeError) in
                try Arguments.count("collectDeviceProfile", args, ["collectors"])
                return .object(self.collect(try Self.collectorNames(args, at: 0), metadataOnly: false))
            },
            NativeMethod("collectDeviceProfileForJourney") { args throws(BridgeError) in
                try self.forJourney(args)
            },
        ]
    }

    static let metadataCollectors = ["platform", "hardware", "network", "telephony", "browser", "bluetooth"]
    /// Where the emulated phone is (central London).
    static let location: JSONValue = ["latitude": 51.5072, "longitude": -0.1276]

    /// Each named collector's data under its key, in the order named (`location` too unless
    /// `metadataOnly`).
    private func collect(_ names: [String], metadataOnly: Bool) -> JSONObject {
        let metadata = DeviceProfileCollector.metadata(platform)
        var profile: JSONObject = [:]
        for name in names {
            if name == "location", !metadataOnly {
                profile["location"] = Self.location
            } else if Self.metadataCollectors.contains(name), let data = metadata[name] {
                profile[name] = data
            }
        }
        return profile
    }

    /// `collectDeviceProfileForJourney(journeyId, collectors, loggerId?)`.
    private func forJourney(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count(
            "collectDeviceProfileForJourney", args, ["journeyId", "collectors", "loggerId"], optional: 1)
        let journeyId = try Arguments.string(args, 0, "journeyId")
        let names = try Self.collectorNames(args, at: 1)
        if args.count == 3, args[2] != .null { _ = try Arguments.string(args, 2, "loggerId") }
        let identifier = RNPingDeviceIdModule.identifier(device.phones.appPhone(), platform: platform)
        let found = try journeys.updateNode(journeyId) { (node: inout PingContinueNode) throws(BridgeError) -> Bool in
            guard let index = node.callbacks.firstIndex(where: { $0.type == .deviceProfile }) else { return false }
            let callback = node.callbacks[index]
            let profile = journeyProfile(
                names, metadata: callback.output("metadata")?.boolValue == true,
                location: callback.output("location")?.boolValue == true, identifier: identifier)
            node.callbacks[index].inputs[0] = .string(JSONWriter.compact(.object(profile)))
            return true
        }
        guard found == true else {
            // iOS rejects through `PromiseBridge.reject(code:message:)`, with no GenericError
            // (so no userInfo type); Android with a state_error GenericError.
            let message = "No active Device Profile callback found for journey \(journeyId)."
            if platform == .ios { throw .reject("DEVICE_PROFILE_CALLBACK_NOT_FOUND", message) }
            throw PingRejection.reject("DEVICE_PROFILE_CALLBACK_NOT_FOUND", .state, message)
        }
        return ["type": "success"]
    }

    /// What the callback sends: `metadata` when AM asks for it (`metadata`) and a metadata
    /// collector is named, `location` when AM asks for it and `location` is named. iOS's
    /// `DeviceProfileResult` starts with `version`; Android's ends with it.
    func journeyProfile(_ names: [String], metadata: Bool, location: Bool, identifier: String) -> JSONObject {
        let collected = collect(names, metadataOnly: true)
        var profile: JSONObject = [:]
        if platform == .ios { profile["version"] = "1.0" }
        profile["identifier"] = .string(identifier)
        if metadata, collected.count > 0 { profile["metadata"] = .object(collected) }
        if location, names.contains("location") { profile["location"] = Self.location }
        if platform == .android { profile["version"] = "1.0" }
        return profile
    }

    /// The collector names: the array's strings (`readCollectors` on Android; iOS's `[String]`).
    private static func collectorNames(_ args: [JSONValue], at position: Int) throws(BridgeError) -> [String] {
        guard position < args.count, case .array(let items) = args[position] else {
            throw .invalidParams(reason: "collectors must be an array of collector names", param: "collectors")
        }
        return items.compactMap(\.stringValue)
    }
}
