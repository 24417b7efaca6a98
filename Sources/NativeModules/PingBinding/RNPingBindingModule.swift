import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// `RNPingBinding`, the successor SDK's device-binding TurboModule (`binding/src/NativeRNPingBinding.ts`;
/// native `binding/ios/RNPingBindingCommon.swift`, `binding/android/…/RNPingBindingCommon.kt`). It
/// answers the journey's current DeviceBindingCallback or DeviceSigningVerifierCallback with the
/// app's phone (`Phones.appPhoneId`) as the platform's binding SDK does (`BindingCeremony`), then
/// resolves `{type: "success"}` or rejects; either way the callback carries the JWS or the client
/// error, which JS submits with `RNPingJourney.next`.
///
/// A PIN or a key choice the app's JS collects (`hasPinCollector`, `hasUserKeySelector`) parks the
/// call: the module emits `RNPingBinding_PinRequired` / `RNPingBinding_UserKeyRequired` with a
/// request id (`binding/ios/BindingEventBridge.swift`, Android twin) and the call settles once JS
/// answers with `resolvePin` / `cancelPin` / `selectUserKey` / `cancelUserKey`. The bridge gives
/// each prompt 60 s; here the deadline is on the daemon's clock and checked whenever a call of
/// this module comes (`emulator.advanceClock` past it, then any call, times it out).
public final class RNPingBindingModule: NativeModule {
    public let name = "RNPingBinding"
    public let namespace = "RNPingBinding"
    public var events: [String] { [Self.pinRequired, Self.userKeyRequired] }

    static let pinRequired = "RNPingBinding_PinRequired"
    static let userKeyRequired = "RNPingBinding_UserKeyRequired"
    /// `PIN_TIMEOUT_MS` / `pinTimeoutSeconds` and the key selection's twin.
    static let promptTimeout: Double = 60

    private let sdk: PingSDK
    private let storages: StorageRegistry
    private let journeys: PingJourneys
    private let emitter: ModuleEvents
    private let pending: PendingCalls
    private let device: DeviceAnswers
    private var platform: Platform { sdk.platform }

    private enum PromptKind { case pin, userKey }

    /// A parked call waiting for JS: its ticket, the operation so far, and the callback it answers.
    private struct Waiting {
        let ticket: PendingCalls.Ticket
        var ceremony: BindingCeremony
        let journeyId: String
        let callback: JSONValue
        let signing: Bool
        var deadline: Double
    }

    /// By kind and request id: `resolvePin` finds only PIN requests, as the bridges keep two maps.
    private var waiting: [PromptKind: [String: Waiting]] = [:]

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        storages = context.storages
        journeys = context.journeys
        emitter = context.events
        pending = context.pending
        device = context.device
        sdk.registerCallbacks([.deviceBinding, .deviceSigningVerifier])
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod(
                "bindForJourney",
                parking: { args, ticket throws(BridgeError) in
                    try self.begin(args, ticket, signing: false)
                }),
            NativeMethod(
                "signForJourney",
                parking: { args, ticket throws(BridgeError) in
                    try self.begin(args, ticket, signing: true)
                }),
            NativeMethod("resolvePin") { args throws(BridgeError) in
                try self.answer(args, "resolvePin", .pin, valueName: "pin")
            },
            NativeMethod("cancelPin") { args throws(BridgeError) in
                try self.answer(args, "cancelPin", .pin, valueName: nil)
            },
            NativeMethod("selectUserKey") { args throws(BridgeError) in
                try self.answer(args, "selectUserKey", .userKey, valueName: "keyId")
            },
            NativeMethod("cancelUserKey") { args throws(BridgeError) in
                try self.answer(args, "cancelUserKey", .userKey, valueName: nil)
            },
            NativeMethod("getAllKeys") { args throws(BridgeError) in
                try Arguments.none("getAllKeys", args)
                self.expirePrompts()
                return .array(self.defaultKeys.map(Self.userKey))
            },
            NativeMethod("deleteKey") { args throws(BridgeError) in try self.deleteKey(args) },
            NativeMethod("deleteAllKeys") { args throws(BridgeError) in
                try Arguments.none("deleteAllKeys", args)
                self.expirePrompts()
                self.device.phones.update(id: Phones.appPhoneId) { $0.bindingKeys.removeAll { $0.storage == nil } }
                return .null
            },
        ]
    }

    // MARK: bind and sign

    private func begin(
        _ args: [JSONValue], _ ticket: PendingCalls.Ticket, signing: Bool
    ) throws(BridgeError)
        -> JSONValue?
    {
        let method = signing ? "signForJourney" : "bindForJourney"
        try Arguments.count(method, args, ["journeyId", "options", "config"])
        let journeyId = try Arguments.string(args, 0, "journeyId")
        let options = try Arguments.object(args, 1, "options")
        let config = try Arguments.object(args, 2, "config")
        expirePrompts()
        if journeyId.allSatisfy({ $0.isWhitespace || $0.isNewline }) {
            throw PingRejection.reject(
                BindingErrors.callbackNotFound, .argument,
                "Journey id must not be empty for device \(signing ? "signing" : "binding").")
        }
        var call = BindingCall(options: options, config: config, platform: platform, signing: signing)
        let type: CallbackType = signing ? .deviceSigningVerifier : .deviceBinding
        let matching = journeys[journeyId]?.node?.callbacks.filter { $0.type == type } ?? []
        guard call.index >= 0, call.index < matching.count, case .object(let raw) = matching[call.index].raw,
            let request = try? BindingCeremony.Request(callback: raw)
        else {
            let suffix = platform == .android ? " at index \(call.index)" : ""
            throw PingRejection.reject(
                BindingErrors.callbackNotFound, .state,
                "No active \(type.rawValue) found for journey \(journeyId)\(suffix).")
        }
        call.options.storage = storage(call.userKeyStorageId)
        var ceremony = BindingCeremony(
            signing ? request : Self.naming(request, call.deviceName), options: call.options)
        let (clock, random) = (device.clock, device.random)
        device.phones.appPhone()
        let step = device.phones.update(id: Phones.appPhoneId) { phone in
            ceremony.start(on: &phone, now: clock.now, random: random)
        }
        let entry = Waiting(
            ticket: ticket, ceremony: ceremony, journeyId: journeyId, callback: .object(raw), signing: signing,
            deadline: clock.now + Self.promptTimeout)
        return try advance(entry, step ?? .finished(.failure(.cancelled)))
    }

    /// `deviceName` from the options replaces the phone's own name.
    private static func naming(_ request: BindingCeremony.Request, _ name: String?) -> BindingCeremony.Request {
        guard case .bind(let r, _) = request else { return request }
        return .bind(r, deviceName: name)
    }

    /// The user-key storage a registration names (nil: the SDK's default; an unknown id falls
    /// back to it, as both bridges' `resolveUserKeyStorage…` do).
    private func storage(_ id: String?) -> String? {
        guard let id, let slot = storages.slot(.bindingUserKey, id: id) else { return nil }
        return slot == BindingCall.defaultStorage(platform) ? nil : slot
    }

    /// Acts on a step: a prompt parks the call (nil) and emits its event; a finished operation
    /// writes the callback's inputs and answers (now, or through the ticket when it was parked).
    private func advance(
        _ entry: Waiting, _ step: BindingCeremony.Step, parked: Bool = false
    ) throws(BridgeError)
        -> JSONValue?
    {
        switch step {
        case .prompt(let prompt):
            let requestId = sdk.newId()
            var entry = entry
            entry.deadline = device.clock.now + Self.promptTimeout
            switch prompt {
            case .pin(let text):
                waiting[.pin, default: [:]][requestId] = entry
                emitter.emit(
                    Self.pinRequired,
                    [
                        "requestId": .string(requestId), "title": .string(text.title),
                        "subtitle": .string(text.subtitle), "description": .string(text.description),
                    ])
            case .userKey(let keys):
                waiting[.userKey, default: [:]][requestId] = entry
                emitter.emit(
                    Self.userKeyRequired, ["requestId": .string(requestId), "userKeys": .array(keys.map(Self.userKey))])
            }
            return nil
        case .finished(let result):
            write(result, entry)
            let outcome: Result<JSONValue, BridgeError> = result.map { _ in ["type": "success"] }.mapError {
                BindingErrors.rejection(
                    $0, signing: entry.signing, platform: platform, request: entry.ceremony.request)
            }
            if parked {
                pending.settle(entry.ticket, outcome)
                return nil
            }
            return try outcome.get()
        }
    }

    /// The JWS, device name and id, or the client error, on the callback's inputs, as the SDK's
    /// callback sets them whether it succeeded or not.
    private func write(_ result: Result<BindingCeremony.Signed, BindingCeremony.Failure>, _ entry: Waiting) {
        guard case .object(let raw) = entry.callback else { return }
        let values = BindingCeremony.inputValues(result, callback: raw)
        _ = try? journeys.updateNode(entry.journeyId) { node throws(BridgeError) in
            guard let index = node.callbacks.firstIndex(where: { $0.raw == entry.callback }) else { return }
            for (position, value) in values { node.callbacks[index].inputs[position] = .string(value) }
        }
    }

    // MARK: answers from JS

    /// `resolvePin(requestId, pin)` and its siblings: `void` on the device; an unknown or settled
    /// request id is ignored, as the bridges' `remove(requestId)?.complete` is.
    private func answer(
        _ args: [JSONValue], _ method: String, _ kind: PromptKind, valueName: String?
    ) throws(BridgeError) -> JSONValue {
        try Arguments.count(method, args, ["requestId"] + (valueName.map { [$0] } ?? []))
        let requestId = try Arguments.string(args, 0, "requestId")
        let value = try valueName.map { name throws(BridgeError) in try Arguments.string(args, 1, name) }
        expirePrompts()
        guard var entry = waiting[kind]?.removeValue(forKey: requestId) else { return .null }
        try settle(&entry, answer: value, timedOut: false)
        return .null
    }

    private func settle(_ entry: inout Waiting, answer: String?, timedOut: Bool) throws(BridgeError) {
        let (clock, random) = (device.clock, device.random)
        var ceremony = entry.ceremony
        device.phones.appPhone()
        let step = device.phones.update(id: Phones.appPhoneId) { phone in
            ceremony.answer(answer, timedOut: timedOut, on: &phone, now: clock.now, random: random)
        }
        entry.ceremony = ceremony
        _ = try advance(entry, step ?? .finished(.failure(.cancelled)), parked: true)
    }

    /// Prompts past their deadline time out, as the bridge's 60 s timer does: iOS cancels the
    /// request, Android throws its timeout from the collector.
    private func expirePrompts() {
        let now = device.clock.now
        for kind in [PromptKind.pin, .userKey] {
            let expired = (waiting[kind] ?? [:]).filter { $0.value.deadline <= now }.sorted { $0.key < $1.key }
            for (requestId, _) in expired {
                guard var entry = waiting[kind]?.removeValue(forKey: requestId) else { continue }
                try? settle(&entry, answer: nil, timedOut: true)
            }
        }
    }

    // MARK: keys

    /// The keys of the SDK's default user-key storage on the app's phone, oldest first.
    private var defaultKeys: [BindingKey] {
        (device.phones.phone(id: Phones.appPhoneId)?.bindingKeys ?? []).filter { $0.storage == nil }
    }

    /// A `UserKey` as JS sees it (`serializeUserKey`, Android's `getAllKeys` map).
    private static func userKey(_ key: BindingKey) -> JSONValue {
        [
            "id": .string(key.listedId), "userId": .string(key.userId), "username": .string(key.username),
            "authenticationType": .string(key.authenticationType),
        ]
    }

    /// `deleteKey(userId, keyId)`: the key whose listed id and user match, else
    /// `BINDING_KEY_DELETE_ERROR` `No binding key found.` (state_error).
    private func deleteKey(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("deleteKey", args, ["userId", "keyId"])
        let userId = try Arguments.string(args, 0, "userId")
        let keyId = try Arguments.string(args, 1, "keyId")
        expirePrompts()
        guard let key = defaultKeys.first(where: { $0.listedId == keyId && $0.userId == userId }) else {
            throw PingRejection.reject(BindingErrors.keyDeleteError, .state, "No binding key found.")
        }
        device.phones.update(id: Phones.appPhoneId) { phone in
            phone.bindingKeys.removeAll { $0.id == key.id && $0.storage == nil }
        }
        return .null
    }
}
