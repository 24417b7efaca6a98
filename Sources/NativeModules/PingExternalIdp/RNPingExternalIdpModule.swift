import AuthBridgeCore
import IdentityServer
import NativeSDK

/// `RNPingExternalIdp`, the successor SDK's social sign-in TurboModule
/// (`external-idp/src/NativeRNPingExternalIdp.ts`; native `external-idp/ios/RNPingExternalIdpCommon.swift`
/// and `external-idp/android/…/RNPingExternalIdpCommon.kt`). It answers a journey's
/// SelectIdPCallback (`selectProviderForJourney`: the chosen provider becomes the callback's
/// value) and IdPCallback (`authorizeForJourney`: the provider SDK signs in, emulated by
/// `DeviceAnswers.authorizeIdP`, and the callback's `token`/`token_type` are set); JS then calls
/// `RNPingJourney.next(id, nodeId, {})`. `authorizeForDaVinci` signs in for a DaVinci flow's IdP
/// collector (`RNPingExternalIdpModule+DaVinci.swift`); JS then calls `RNPingDavinci.next`.
public final class RNPingExternalIdpModule: NativeModule {
    public let name = "RNPingExternalIdp"
    public let namespace = "RNPingExternalIdp"
    let sdk: PingSDK
    private let journeys: PingJourneys
    let davincis: PingDaVincis
    let device: DeviceAnswers
    var dialect: ExternalIdpDialect { ExternalIdpDialect(platform: sdk.platform) }

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        journeys = context.journeys
        davincis = context.davincis
        device = context.device
        // `IdpCallback`/`SelectIdpCallback` are registered by the external-idp package
        // (ping-android `journey/CallbackInitializer.kt`), so journey nodes keep them.
        context.sdk.registerCallbacks([.idP, .selectIdP])
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("authorizeForJourney") { args throws(BridgeError) in try self.authorize(args) },
            NativeMethod("selectProviderForJourney") { args throws(BridgeError) in try self.select(args) },
            NativeMethod("authorizeForDaVinci") { args throws(BridgeError) in try self.authorizeForDaVinci(args) },
        ]
    }

    enum Code: String {
        case authorize = "EXTERNAL_IDP_AUTHORIZE_ERROR", cancelled = "EXTERNAL_IDP_CANCELLED"
        case unsupportedProvider = "EXTERNAL_IDP_UNSUPPORTED_PROVIDER"
        case callbackNotFound = "EXTERNAL_IDP_CALLBACK_NOT_FOUND", config = "EXTERNAL_IDP_CONFIG_ERROR"
    }

    static func reject(_ code: Code, _ kind: PingRejection.Kind, _ message: String) -> BridgeError {
        PingRejection.reject(code.rawValue, kind, message)
    }

    // MARK: authorizeForJourney

    /// `authorizeForJourney(journeyId, options, config)`: a blank id, then the callback at
    /// `options.index` among the node's IdPCallbacks, then the handler's sign-in.
    func authorize(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let (id, index, config) = try Self.call("authorizeForJourney", args, ["journeyId", "options", "config"])
        guard !id.trimmingSpaces.isEmpty else {
            throw Self.reject(
                .callbackNotFound, .argument, "Journey id must not be empty for external IdP authorization.")
        }
        let redirectUri = (config["redirectUri"]?.stringValue ?? "").trimmingSpaces
        let answer = try journeys.updateNode(id) { node throws(BridgeError) -> IdPAuthorization in
            guard let position = Self.position(of: .idP, in: node, index: index) else {
                throw Self.notFound("IdP", id, index)
            }
            let callback = node.callbacks[position]
            // Android's `parseRedirectUri`: Apple needs a redirect URI with a scheme.
            if sdk.platform == .android, !redirectUri.isEmpty, !redirectUri.contains(":"),
                callback.outputString("provider").lowercased().contains("apple")
            {
                throw Self.reject(
                    .config, .argument, "Redirect URI must include a URI scheme for external IdP authorization.")
            }
            let answer: IdPAuthorization
            do throws(DeviceAnswers.IdPFailure) {
                answer = try device.authorizeIdP(callback: callback.raw, platform: sdk.platform)
            } catch {
                throw dialect.rejection(error)
            }
            node.callbacks[position].inputs[0] = .string(answer.submittedToken)
            node.callbacks[position].inputs[1] = .string(answer.tokenType)
            // Android's IdpCallback adds the result's parameters to the request that submits it
            // (`intercept`); iOS sends only the inputs.
            if sdk.platform == .android {
                for (name, value) in answer.additionalParameters ?? [] {
                    node.callbacks[position].requestParameters[name] = value
                }
            }
            return answer
        }
        guard let answer else { throw Self.notFound("IdP", id, index) }
        var result: JSONObject = ["token": .string(answer.token)]
        if let parameters = answer.additionalParameters {
            result["additionalParameters"] = .object(JSONObject(parameters.map { ($0.0, JSONValue.string($0.1)) }))
        }
        return .object(result)
    }

    typealias IdPAuthorization = DeviceAnswers.IdPAuthorization

    // MARK: selectProviderForJourney

    /// `selectProviderForJourney(journeyId, provider, options, config)`: a blank id, a blank
    /// provider, then the SelectIdPCallback at `options.index`, whose value becomes the provider
    /// (trimmed). The name is not checked against the offered providers: AM does that on `next`.
    func select(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let (id, index, _) = try Self.call(
            "selectProviderForJourney", args, ["journeyId", "provider", "options", "config"])
        let provider = try Arguments.string(args, 1, "provider").trimmingSpaces
        guard !id.trimmingSpaces.isEmpty else {
            throw Self.reject(
                .callbackNotFound, .argument, "Journey id must not be empty for setting selected provider.")
        }
        guard !provider.isEmpty else {
            throw Self.reject(.config, .argument, "Provider must not be empty for external IdP selection.")
        }
        let found: Bool? = try journeys.updateNode(id) { node throws(BridgeError) in
            guard let position = Self.position(of: .selectIdP, in: node, index: index) else { return false }
            node.callbacks[position].inputs[0] = .string(provider)
            return true
        }
        guard found == true else { throw Self.notFound("SelectIdp", id, index) }
        return .null
    }

    // MARK: arguments and lookups

    /// The arguments every method shares, as its spec declares them (`names`: the id first,
    /// `options` and `config` last): the id, `options.index` and the config.
    static func call(
        _ method: String, _ args: [JSONValue], _ names: [String]
    ) throws(BridgeError) -> (id: String, index: Int, config: JSONObject) {
        try Arguments.count(method, args, names)
        let id = try Arguments.string(args, 0, names[0])
        let options = try Arguments.object(args, names.count - 2, "options")
        let config = try Arguments.object(args, names.count - 1, "config")
        return (id, index(options), config)
    }

    /// `parseCallbackIndex`: a number (iOS `intValue`, Android `getDouble().toInt()`, both
    /// truncating), a numeric string, else 0.
    static func index(_ options: JSONObject) -> Int {
        switch options["index"] {
        case .int(let value)?: return Int(clamping: value)
        case .double(let value)?: return value.isFinite ? Int(max(min(value, 1e9), -1e9).rounded(.towardZero)) : 0
        case .string(let text)?: return Int(text) ?? 0
        default: return 0
        }
    }

    /// The node position of the `index`-th callback of `type`, if there is one.
    private static func position(of type: CallbackType, in node: PingContinueNode, index: Int) -> Int? {
        let matching = node.callbacks.indices.filter { node.callbacks[$0].type == type }
        return index >= 0 && index < matching.count ? matching[index] : nil
    }

    private static func notFound(_ kind: String, _ id: String, _ index: Int) -> BridgeError {
        reject(.callbackNotFound, .state, "No active \(kind) callback found for journey \(id) at index \(index).")
    }
}
