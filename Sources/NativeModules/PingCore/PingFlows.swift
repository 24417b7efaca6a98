import AuthBridgeCore
import NativeSDK

/// The flows a configure call made (`RNPingJourney.configureJourney`, `RNPingDavinci.configureDaVinci`),
/// by id, each with its current node. The extension modules reach a flow's current node by the
/// same id, as the native packages do through `RNPingCore`'s registry (`CoreRuntime`
/// `resolveJourneyCallbacks`, `resolveDaVinciCollectors`: `fido/ios/RNPingFidoCommon.swift`,
/// `external-idp/ios/RNPingExternalIdpCommon.swift`, `protect/ios/RNPingProtectCommon.swift`): they
/// set values on its callbacks or collectors, and JS then calls the flow module's `next`, which
/// submits them.
public final class PingFlows<Client: AnyObject, Node> {
    public struct Entry {
        public let client: Client
        /// The ContinueNode the flow waits at, if any.
        public var node: Node?

        public init(client: Client, node: Node?) {
            self.client = client
            self.node = node
        }
    }

    private var entries: [String: Entry] = [:]

    public init() {}

    public subscript(id: String) -> Entry? {
        get { entries[id] }
        set { entries[id] = newValue }
    }

    /// Changes the current node of flow `id` in place; nil when the flow is unknown or waits at
    /// no node. What `change` set before it threw stays set, as on a device.
    public func updateNode<T>(
        _ id: String, _ change: (inout Node) throws(BridgeError) -> T
    ) throws(BridgeError) -> T? {
        guard var node = entries[id]?.node else { return nil }
        defer { entries[id]?.node = node }
        return try change(&node)
    }
}

/// The journeys of `RNPingJourney`, shared with the journey extension modules.
public typealias PingJourneys = PingFlows<PingJourneyClient, PingContinueNode>
/// The DaVinci clients of `RNPingDavinci`, shared with `RNPingExternalIdp` and `RNPingProtect`.
public typealias PingDaVincis = PingFlows<PingDavinciClient, DavinciContinueNode>

/// What every successor-SDK module is built from: one SDK, one storage registry, one set of
/// journeys, the events and parked calls of the world, and the app's hands on the emulated phone.
public struct PingModuleContext {
    public let sdk: PingSDK
    public let storages: StorageRegistry
    public let journeys: PingJourneys
    /// The DaVinci clients `RNPingDavinci.configureDaVinci` made.
    public let davincis = PingDaVincis()
    public let events: ModuleEvents
    public let pending: PendingCalls
    /// The emulated phone the app runs on (`Phones.appPhoneId`) and the server it reaches.
    public let device: DeviceAnswers
    /// The loggers `RNPingLogger` registered, which a module's `loggerId` names.
    public let loggers = PingLoggers()

    public init(
        sdk: PingSDK, storages: StorageRegistry, journeys: PingJourneys, events: ModuleEvents,
        pending: PendingCalls, device: DeviceAnswers
    ) {
        self.sdk = sdk
        self.storages = storages
        self.journeys = journeys
        self.events = events
        self.pending = pending
        self.device = device
    }
}

/// Every module of the Ping React Native SDK (`ForgeRock/ping-react-native-sdk`, `packages/*`)
/// the daemon answers on the React Native flavors, in the order `daemon.hello` lists them. A new
/// module is one line here.
public enum PingModules {
    public static func all(_ context: PingModuleContext) -> [any NativeModule] {
        [
            RNPingJourneyModule(context),
            RNPingOidcModule(sdk: context.sdk, storages: context.storages),
            RNPingStorageModule(sdk: context.sdk, registry: context.storages),
            RNPingOathModule(context),
            RNPingLoggerModule(sdk: context.sdk, loggers: context.loggers),
            RNPingProtectModule(context),
            RNPingDeviceClientModule(sdk: context.sdk),
            RNPingBrowserModule(sdk: context.sdk),
            RNPingPushModule(context),
            RNPingFidoModule(context),
            RNPingDeviceProfileModule(context),
            RNPingDeviceIdModule(context),
            RNPingExternalIdpModule(context),
            RNPingBindingModule(context),
            RNPingDavinciModule(context),
        ]
    }
}
