import AuthBridgeCore
import NativeSDK

/// `RNPingDavinci`, the successor SDK's DaVinci TurboModule (`davinci/src/NativeRNPingDavinci.ts`;
/// native `davinci/ios/RNPingDavinciCommon.swift`, `davinci/android/…/RNPingDavinciCommon.kt`).
/// Several clients live at once, keyed by the id `configureDaVinci` resolves; each holds its
/// current ContinueNode in the registry the extension modules share (`PingDaVincis`), where
/// `RNPingExternalIdp` and `RNPingProtect` set values on its collectors. Server outcomes resolve
/// as nodes; only bad calls reject.
public final class RNPingDavinciModule: NativeModule {
    public let name = "RNPingDavinci"
    public let namespace = "RNPingDavinci"
    /// The event `pollDaVinci` streams (`davinci/ios/RNPingDavinciEvents.swift`).
    static let pollingStatusEvent = "com.pingidentity.rndavinci.PollingStatus"
    public var events: [String] { [Self.pollingStatusEvent] }

    let sdk: PingSDK
    private let storages: StorageRegistry
    let moduleEvents: ModuleEvents
    private var platform: Platform { sdk.platform }

    let davincis: PingDaVincis

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        storages = context.storages
        moduleEvents = context.events
        davincis = context.davincis
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("configureDaVinci") { args throws(BridgeError) in try self.configure(args) },
            NativeMethod("start") { args throws(BridgeError) in try self.start(args) },
            NativeMethod("next") { args throws(BridgeError) in try self.next(args) },
            NativeMethod("getSession") { args throws(BridgeError) in try self.session(args, "getSession") },
            NativeMethod("refresh") { args throws(BridgeError) in try self.session(args, "refresh") },
            NativeMethod("revoke") { args throws(BridgeError) in try self.revoke(args) },
            NativeMethod("userinfo") { args throws(BridgeError) in try self.userinfo(args) },
            NativeMethod("logout") { args throws(BridgeError) in try self.logout(args) },
            NativeMethod("dispose") { args throws(BridgeError) in try self.dispose(args) },
            NativeMethod("pollDaVinci") { args throws(BridgeError) in try self.poll(args) },
        ]
    }

    // MARK: configure and the flow

    func configure(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("configureDaVinci", args, ["config"])
        var config = try DaVinciConfigParser.parse(try Arguments.reader(args, 0, "config"), platform: platform)
        // The factory resolves the storage handle after parsing (`DaVinciClientFactory`).
        if let storageId = config.storageId {
            guard let slot = storages.slot(.oidc, id: storageId) else {
                throw PingRejection.davinci(
                    .initialize, .argument, "No OIDC storage config registered for id=\(storageId)")
            }
            config.client.storageKey = slot
        }
        let id = sdk.newId()
        davincis[id] = PingDaVincis.Entry(client: sdk.davinci(config.client), node: nil)
        return .string(id)
    }

    private func id(
        _ args: [JSONValue], _ method: String, _ names: [String] = ["davinciId"]
    ) throws(BridgeError)
        -> String
    {
        try Arguments.count(method, args, names)
        return try Arguments.string(args, 0, "davinciId")
    }

    private func entry(_ id: String) throws(BridgeError) -> PingDaVincis.Entry {
        guard let entry = davincis[id] else { throw PingRejection.davinciNotFound(id) }
        return entry
    }

    func start(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let id = try id(args, "start")
        return settle(try entry(id).client.start(), id: id)
    }

    /// `next(davinciId, input)`: iOS parses the input before it looks for the form; Android after.
    /// An unknown id has no form either.
    func next(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let id = try id(args, "next", ["davinciId", "input"])
        let input = try Arguments.object(args, 1, "input")
        let applier = DaVinciCollectorValueApplier(platform: platform)
        var mutations: [DaVinciCollectorValueApplier.Mutation] = []
        if platform == .ios { mutations = try applier.parse(input) }
        guard var node = davincis[id]?.node, let client = davincis[id]?.client else {
            throw PingRejection.davinci(.state, .state, "No active ContinueNode found for davinci id=\(id)")
        }
        if platform == .android { mutations = try applier.parse(input) }
        do {
            try applier.apply(mutations, to: &node)
        } catch {
            davincis[id]?.node = node  // what was set before the failure stays set
            throw error
        }
        return settle(client.next(node), id: id)
    }

    /// The node becomes the client's current one when it is a form; any other clears it.
    private func settle(_ node: DavinciNode, id: String) -> JSONValue {
        if case .next(let form) = node { davincis[id]?.node = form } else { davincis[id]?.node = nil }
        return DaVinciNodeMapper.map(node, platform: platform)
    }

    // MARK: the user

    /// `getSession`/`refresh`: `{accessToken, expiresIn, refreshToken?, userInfo?}`, or null with
    /// no user; user info is added when it can be read.
    func session(_ args: [JSONValue], _ method: String) throws(BridgeError) -> JSONValue {
        let client = try entry(try id(args, method)).client
        guard client.hasUser else { return .null }
        do throws(PingSDKError) {
            let token = method == "refresh" ? try client.refresh() : try client.token()
            var result: JSONObject = ["accessToken": .string(token.value), "expiresIn": .int(token.expiresIn)]
            if let refreshToken = token.refreshToken { result["refreshToken"] = .string(refreshToken) }
            if let claims = try? client.userinfo() { result["userInfo"] = claims }
            return .object(result)
        } catch {
            throw PingRejection.davinciUser(error, code: .session, platform: platform)
        }
    }

    func userinfo(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let client = try entry(try id(args, "userinfo")).client
        guard client.hasUser else { return .null }
        do throws(PingSDKError) {
            return try client.userinfo()
        } catch {
            throw PingRejection.davinciUser(error, code: .session, platform: platform)
        }
    }

    func revoke(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let client = try entry(try id(args, "revoke")).client
        if client.hasUser { client.revoke() }
        return true
    }

    /// `workflow.signOff()`, then the form is forgotten.
    func logout(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let id = try id(args, "logout")
        _ = try entry(id).client.signOff()
        davincis[id]?.node = nil
        return .null
    }

    /// Forgets the client; an unknown id resolves too.
    func dispose(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        davincis[try id(args, "dispose")] = nil
        return .null
    }
}
