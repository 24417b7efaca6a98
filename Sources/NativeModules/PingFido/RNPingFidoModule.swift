import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// `RNPingFido`, the successor SDK's FIDO TurboModule (`fido/src/NativeRNPingFido.ts`; native
/// `fido/ios/RNPingFidoCommon.swift`, `fido/android/…/RNPingFidoCommon.kt`). Passkeys live on the
/// app's phone (`Phones.appPhoneId`). The `…ForJourney` methods run the journey's current
/// FidoRegistrationCallback / FidoAuthenticationCallback (AM's WebAuthn MetadataCallback, which
/// the package specializes: `PingCallback.specialized`): the callback writes its answer into the
/// step's `webAuthnOutcome` HiddenValueCallback, the promise resolves `{type: "success"}`, and
/// JS then calls `RNPingJourney.next`. A failed ceremony writes the error outcome and rejects.
/// The standalone methods are in `RNPingFidoModule+Standalone.swift`.
public final class RNPingFidoModule: NativeModule {
    public let name = "RNPingFido"
    public let namespace = "RNPingFido"
    let sdk: PingSDK
    let journeys: PingJourneys
    let device: DeviceAnswers
    var platform: Platform { sdk.platform }

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        journeys = context.journeys
        device = context.device
        context.sdk.registerCallbacks([.fidoRegistration, .fidoAuthentication])
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("registerCredential") { args throws(BridgeError) in try self.standalone(args, .register) },
            NativeMethod("authenticateCredential") { args throws(BridgeError) in
                try self.standalone(args, .authenticate)
            },
            NativeMethod("registerCredentialForJourney") { args throws(BridgeError) in
                try self.forJourney(args, .register)
            },
            NativeMethod("authenticateCredentialForJourney") { args throws(BridgeError) in
                try self.forJourney(args, .authenticate)
            },
        ]
    }

    enum Operation {
        case register, authenticate

        var code: String { self == .register ? "FIDO_REGISTER_ERROR" : "FIDO_AUTHENTICATE_ERROR" }
        var noun: String { self == .register ? "registration" : "authentication" }
        var callbackType: CallbackType { self == .register ? .fidoRegistration : .fidoAuthentication }
    }

    static let callbackNotFound = "FIDO_CALLBACK_NOT_FOUND"

    // MARK: journey callbacks

    /// `registerCredentialForJourney(journeyId, options, config)` /
    /// `authenticateCredentialForJourney(journeyId, options, config)`: a blank id rejects
    /// (argument_error); then the callback of the type at `options.index` (default 0) among the
    /// current node's callbacks of that type (state_error when there is none: Android's message
    /// names the index, iOS's does not).
    func forJourney(_ args: [JSONValue], _ operation: Operation) throws(BridgeError) -> JSONValue {
        let method = operation == .register ? "registerCredentialForJourney" : "authenticateCredentialForJourney"
        try Arguments.count(method, args, ["journeyId", "options", "config"])
        let journeyId = try Arguments.string(args, 0, "journeyId")
        let options = try Arguments.object(args, 1, "options")
        _ = try Arguments.object(args, 2, "config")
        if journeyId.allSatisfy({ $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
            throw PingRejection.reject(
                Self.callbackNotFound, .argument, "Journey id must not be empty for FIDO \(operation.noun).")
        }
        let index = Self.callbackIndex(options)
        let deviceName = operation == .register ? deviceName(options) : nil
        let found = try journeys.updateNode(journeyId) { node throws(BridgeError) in
            try run(operation, on: &node, index: index, deviceName: deviceName)
        }
        guard found == true else {
            let suffix = platform == .android ? " at index \(index)" : ""
            throw PingRejection.reject(
                Self.callbackNotFound, .state,
                "No active FIDO \(operation.noun) callback found for journey \(journeyId)\(suffix).")
        }
        return ["type": "success"]
    }

    /// Runs the callback on the app's phone; false when the node has no such callback. The
    /// outcome is written before a failure rejects, as the callback's `handleError` does.
    private func run(
        _ operation: Operation, on node: inout PingContinueNode, index: Int, deviceName: String?
    ) throws(BridgeError) -> Bool {
        let matching = node.callbacks.indices.filter { node.callbacks[$0].type == operation.callbackType }
        guard index >= 0, index < matching.count else { return false }
        let callback = node.callbacks[matching[index]]
        let data = callback.output("data")?.objectValue ?? [:]
        let supportsJson = data["supportsJsonResponse"]?.boolValue ?? false
        let outcome = node.callbacks.indices.first {
            node.callbacks[$0].type == .hiddenValue && node.callbacks[$0].outputString("id") == "webAuthnOutcome"
        }
        func write(_ value: String) {
            if let outcome { node.callbacks[outcome].state["value"] = .string(value) }
        }
        switch device.passkeyCeremony(data, phone: Phones.appPhoneId) ?? .failure(.data("not a WebAuthn callback")) {
        case .success(let result):
            write(
                FidoOutcome.value(
                    result.outcome(deviceName: deviceName), supportsJson: supportsJson, platform: platform))
            return true
        case .failure(let failure):
            let text = FidoFailure.of(failure, platform: platform, registering: operation == .register)
            write(text.outcome)
            throw reject(operation, text)
        }
    }

    /// The journey methods' rejection: registration `FIDO_REGISTER_ERROR`; authentication
    /// `FIDO_AUTHENTICATE_CANCELLED` for a cancellation or no credential, else
    /// `FIDO_AUTHENTICATE_ERROR`. Android prefixes a cancellation's message.
    private func reject(_ operation: Operation, _ failure: FidoFailure) -> BridgeError {
        if operation == .authenticate, failure.recoverable {
            let message =
                platform == .android ? "FIDO authentication cancelled: \(failure.message)" : failure.message
            return PingRejection.reject("FIDO_AUTHENTICATE_CANCELLED", FidoFailure.kind(platform), message)
        }
        return PingRejection.reject(operation.code, FidoFailure.kind(platform), failure.message)
    }

    /// `parseCallbackIndex`: a number (truncated), a numeric string, else 0.
    static func callbackIndex(_ options: JSONObject) -> Int {
        switch options["index"] {
        case .int(let value)?: return Int(clamping: value)
        case .double(let value)? where value.isFinite && abs(value) < 1e9: return Int(value)
        case .string(let text)?: return Int(text) ?? 0
        default: return 0
        }
    }

    /// `parseJourneyDeviceName` (iOS) / `parseDeviceName` (Android): a string trimmed (blank
    /// is none); a number as text (iOS `NSNumber.stringValue`, Android `Double.toString`); a
    /// boolean arrives on iOS as an NSNumber (`1`/`0`) and on Android as `true`/`false`.
    func deviceName(_ options: JSONObject) -> String? {
        let raw: String?
        switch options["deviceName"] {
        case .string(let text)?: raw = text
        case .int(let value)?: raw = platform == .ios ? String(value) : "\(Double(value))"
        case .double(let value)?:
            let whole = value.rounded() == value && abs(value) < 1e15
            raw = platform == .ios && whole ? String(Int64(value)) : "\(value)"
        case .bool(let value)?: raw = platform == .ios ? (value ? "1" : "0") : String(value)
        default: raw = nil
        }
        let trimmed = raw.map { String($0.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed()) }
        return trimmed?.isEmpty == false ? trimmed : nil
    }
}
