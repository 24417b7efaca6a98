import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice
import IdentityServer
import NativeModules
import NativeSDK
import PingOne
import StateStore

/// The world of one daemon: the clock and random source, the embedded server, the SDK with its
/// credentials and token sync, the native modules, the state directory. It has no lock: it lives
/// behind the `Host`'s `Mutex`, and a face reaches it only inside `Host.perform`, one unit of work
/// at a time, so a journey never interleaves and transcripts have one total order.
public final class World {
    public let configuration: HostConfiguration
    public let clock: Clock
    public let random: RandomSource
    /// The server the SDK and the native modules talk to: the embedded one, or a real tenant.
    public let server: any IdentityServer
    /// The faults asked for on purpose, consulted between the SDK and `server` (which is the
    /// real server wrapped in a `FaultingServer`) and by the HTTP face before it answers.
    public let faultPlan = FaultPlan()
    /// The emulator itself, kept beside a remote server only for what `emulator.*` reads and
    /// saved state holds; in remote mode nothing talks to it.
    public let embedded: EmbeddedAM
    /// PingOne's face of the embedded server: DaVinci flows and `/{envId}/as/` (docs/davinci.md),
    /// sharing its users, sessions and tokens. The HTTP face and RNPingDavinci both call it.
    public let pingOne: PingOne
    /// `pingOne` as its callers reach it, the HTTP face and RNPingDavinci: through the fault plan
    /// (`FaultingPingOne`).
    public let pingOneServer: any PingOneServer
    public let sdk: AuthSDK
    public let sync: TokenSync
    public let journeys: any JourneyModule
    /// The successor SDK's keychain: its sessions and tokens, saved with the rest. Kept on every
    /// flavor, so a run of a flavor without the Ping modules writes back what another run saved.
    public let pingStores = PingStores()
    /// The test users' phones: the emulated device, beside the SDK (`EmulatedDevice`).
    public let phones: Phones
    /// The native side's hands on the phones: the sample bridges' complete mode and `emulator.*`.
    public let deviceAnswers: DeviceAnswers
    public private(set) var catalog = ModuleCatalog()
    /// Native calls JS still waits on (a binding PIN prompt): settled by a later call, answered
    /// to the face that parked them once that unit is durable.
    public let pendingCalls = PendingCalls()
    /// The modules' own events (`NativeEventEmitter`), delivered with the unit's other events.
    let moduleEvents = ModuleEvents()
    /// Told when each unit has ended (`Host.perform`): the inspector's live page.
    public let unitWatchers = UnitWatchers()
    /// The inspector's timeline, when it is recorded (`HostConfiguration.recordsTimeline`).
    public let timeline: Timeline?
    let stateDirectory: StateDirectory?

    /// The stdio host's events go here; without one (in-process use) they are dropped
    /// (`Host.attach`).
    var eventSink: EventSink?
    /// The owners of what `--state-dir` saves.
    let owners: StateBook
    /// The journal's last record; each commit's record takes the next number.
    private var sequence: Int64 = 0
    /// Past this size the journal is folded into a new snapshot.
    private var compactionThreshold = World.minimumCompaction
    private static let minimumCompaction: Int64 = 1 << 20
    /// What the owners held right after the start (state loaded, `--import` applied): what
    /// `emulator.reset` restores.
    var startEntries = StateEntries()
    /// Events of the change under way, handed over when it is durable.
    private var pendingEvents: [(String, JSONValue)] = []

    typealias StartFailure = Host.StartFailure

    public var isRemote: Bool { configuration.remote != nil }

    init(configuration: HostConfiguration, connect: Host.Connect?) throws(StartFailure) {
        self.configuration = configuration
        timeline = configuration.recordsTimeline ? Timeline() : nil
        let seeded = configuration.seed.map { SeededRandomSource(seed: $0) }
        random = seeded ?? SystemRandomSource()
        let virtual: VirtualClock?
        switch configuration.clock {
        case .system: virtual = nil
        case .virtual(let epoch): virtual = VirtualClock(epoch: epoch)
        }
        clock = virtual ?? SystemClock()
        var serverConfig = EmbeddedAMConfig()
        if let base = configuration.publicURL ?? configuration.httpOrigin.map({ $0 + "/am" }) {
            serverConfig.baseURL = base
        }
        for uri in configuration.redirectUris where !serverConfig.clients[0].redirectUris.contains(uri) {
            serverConfig.clients[0].redirectUris.append(uri)
        }
        for uri in configuration.postLogoutRedirectUris
        where !serverConfig.clients[0].postLogoutRedirectUris.contains(uri) {
            serverConfig.clients[0].postLogoutRedirectUris.append(uri)
        }
        if let seconds = configuration.maxSessionTime { serverConfig.maxSessionTime = seconds }
        if let seconds = configuration.maxIdleTime { serverConfig.maxIdleTime = seconds }
        if let algorithm = configuration.idTokenSigningAlgorithm {
            serverConfig.clients[0].idTokenSigningAlgorithm = algorithm
        }
        let embedded = EmbeddedAM(config: serverConfig, clock: clock, random: random)
        self.embedded = embedded
        pingOne = PingOne(
            // The base URL is `--public-url`'s when one is given, else the HTTP face's: links
            // and discovery name the origin a client reaches, as AM's do.
            server: embedded, origin: Self.origin(of: serverConfig.baseURL), clock: clock, random: random)
        pingOneServer = FaultingPingOne(pingOne, plan: faultPlan, platform: configuration.flavor.platform)
        if let remote = configuration.remote {
            guard let connect else {
                throw StartFailure(message: "server.kind remote needs a client for \(remote.url); none was given")
            }
            server = FaultingServer(
                try connect(remote), plan: faultPlan, platform: configuration.flavor.platform)
        } else {
            server = FaultingServer(embedded, plan: faultPlan, platform: configuration.flavor.platform)
        }
        if !configuration.journeyFiles.isEmpty {
            let sources = try JourneyFiles.sources(configuration.journeyFiles)
            do {
                let loaded = try JourneyImport.load(
                    sources, unknownAsScenario: configuration.unknownNodesAsScenario,
                    builtIn: Set(embedded.journeyNames))
                for journey in loaded { embedded.add(journey: journey) }
            } catch {
                throw StartFailure(message: error.description)
            }
        }
        if let path = configuration.scenarioFile { try Self.applyScenario(path, to: embedded) }
        for path in configuration.davinciFlowFiles { try Self.loadFlows(path, into: pingOne) }
        let services = [
            ("--auth-service", configuration.authServiceName),
            ("--registration-service", configuration.registrationServiceName),
        ]
        // A tenant's journeys are its own: only the embedded server's names can be checked here.
        for (flag, name) in services where configuration.remote == nil && !embedded.journeyNames.contains(name) {
            throw StartFailure(
                message:
                    "\(flag) names no journey \(name) (available: \(embedded.journeyNames.joined(separator: ", ")))")
        }
        if configuration.variant == .guide, configuration.flavor != .reactNativeIOS {
            throw StartFailure(message: "the guide's bridge is an iOS React Native bridge: use it with flavor rn-ios")
        }
        var options = SDKOptions()
        options.realm = embedded.config.realm
        options.cookieName = embedded.config.cookieName
        options.authServiceName = configuration.authServiceName
        options.registrationServiceName = configuration.registrationServiceName
        if let remote = configuration.remote { Self.apply(remote, to: &options) }
        sdk = AuthSDK(server: server, options: options, clock: clock, random: random)
        sync = TokenSync(tokens: sdk.tokens, random: random, clock: clock)
        phones = Phones(random: random)
        let serverURL = configuration.remote?.url ?? embedded.config.baseURL
        let serverHost = String(
            (serverURL.split(separator: "://", maxSplits: 1).last ?? "").prefix { $0 != "/" && $0 != ":" })
        deviceAnswers = DeviceAnswers(
            phones: phones, server: server, clock: clock, random: random, serverHost: serverHost)
        if configuration.remote == nil { deviceAnswers.socialSignIn = embedded.socialProviders }
        owners = StateBook([
            SavedValue.clock(virtual), SavedValue.random(seeded), sdk.tokens, pingStores, embedded, phones,
        ])
        // One observer of ended sessions, wired to the credentials' owner: a session ended on
        // any face (HTTP logout, endSession) ends the native login that holds it.
        embedded.onSessionEnded = { [unowned sdk] session, cause in
            sdk.tokens.sessionEnded(tokenId: session.tokenId, cause: cause)
        }
        // The push sender's notifications reach the phones holding the token, as SNS delivers them.
        embedded.onPushNotification = { [unowned deviceAnswers] delivery in
            deviceAnswers.deliver(messageId: delivery.messageId, jwt: delivery.message, deviceToken: delivery.deviceId)
        }
        do {
            stateDirectory = try configuration.stateDirectory.map { path throws(StateDirectory.Failure) in
                try StateDirectory(path: path)
            }
        } catch {
            throw StartFailure(message: error.message)
        }
        journeys = Self.journeyModule(configuration, sdk: sdk, device: deviceAnswers)
        catalog.register(journeys)
        catalog.register(TokenSyncModule(sdk: sdk, sync: sync, clock: clock))
        // The successor SDK's modules beside the old bridge, so an app mid-migration talks to both
        // over one server (React Native flavors only: they are TurboModules).
        if configuration.flavor == .reactNativeIOS || configuration.flavor == .reactNativeAndroid {
            let ping = PingSDK(
                platform: configuration.flavor.platform, server: server, clock: clock, random: random,
                stores: pingStores,
                testUser: configuration.remote != nil
                    ? nil : embedded.config.demoUser.map { ($0.username, $0.password) },
                postLogoutRedirectUris: configuration.remote != nil
                    ? nil : embedded.config.clients.flatMap(\.postLogoutRedirectUris),
                // The PingOne environment RNPingDavinci's flows run on (none beside a remote tenant).
                pingOne: configuration.remote != nil ? nil : pingOneServer)
            let context = PingModuleContext(
                sdk: ping, storages: StorageRegistry(), journeys: PingJourneys(), events: moduleEvents,
                pending: pendingCalls, device: deviceAnswers)
            for module in PingModules.all(context) { catalog.register(module) }
        }
        sync.emit = { [unowned self] event, params in pendingEvents.append((event, params)) }
        moduleEvents.connect { [unowned self] event, params in pendingEvents.append((event, params)) }
        try restoreState(recovery: configuration.stateRecovery)
        if let path = configuration.importFile { try importAtStart(path) }
        startEntries = owners.entries
    }

    /// `scheme://host[:port]` of a URL.
    private static func origin(of url: String) -> String {
        let parts = url.split(separator: "://", maxSplits: 1)
        guard parts.count == 2 else { return url }
        return "\(parts[0])://\(parts[1].prefix { $0 != "/" })"
    }

    /// The app's configuration of a tenant as the SDK's options (what FRAuth.start reads).
    private static func apply(_ remote: RemoteServerSettings, to options: inout SDKOptions) {
        options.realm = remote.realm
        options.cookieName = remote.cookieName
        options.oauthClientId = remote.oauthClientId
        options.oauthRedirectUri = remote.oauthRedirectUri
        options.oauthScope = remote.oauthScope
        options.oauthThreshold = remote.oauthThreshold
        options.checksSessionOnRefresh = true
        if let name = remote.authServiceName { options.authServiceName = name }
        if let name = remote.registrationServiceName { options.registrationServiceName = name }
    }

    /// The sample bridge of the configured flavor (docs/flavors.md).
    private static func journeyModule(
        _ configuration: HostConfiguration, sdk: AuthSDK, device: DeviceAnswers
    ) -> any JourneyModule {
        switch configuration.flavor {
        case .reactNativeIOS where configuration.variant == .guide:
            return GuideBridge(sdk: sdk)
        case .reactNativeIOS, .reactNativeAndroid:
            return ReactNativeBridge(
                sdk: sdk, flavor: configuration.flavor, startDelay: configuration.startDelay,
                callbacks: configuration.callbacks, device: device)
        case .flutterIOS, .flutterAndroid:
            return FlutterBridge(
                sdk: sdk, flavor: configuration.flavor, callbacks: configuration.callbacks, device: device)
        }
    }

    /// `--scenario FILE`: the outcomes of nodes AuthBridge cannot run; a choice that fits no
    /// loaded node stops the start, named.
    private static func applyScenario(_ path: String, to server: EmbeddedAM) throws(StartFailure) {
        let json = try startFile(path, named: "the scenario file")
        do {
            try server.applyScenario(json)
        } catch {
            throw StartFailure(message: "the scenario file \(path) is invalid: \(error.reason)")
        }
    }

    /// `--davinci-flows FILE`: flows for the PingOne server; a bad file stops the start, named.
    private static func loadFlows(_ path: String, into pingOne: PingOne) throws(StartFailure) {
        let json = try startFile(path, named: "the DaVinci flow file")
        do {
            for flow in try DaVinciFlow.load(json) { pingOne.add(flow: flow) }
        } catch {
            throw StartFailure(message: "the DaVinci flow file \(path) is invalid: \(error.reason)")
        }
    }

    /// A JSON file a start option names, read and parsed; what is wrong stops the start, named
    /// as `what` ("the scenario file").
    private static func startFile(_ path: String, named what: String) throws(StartFailure) -> JSONValue {
        switch FileBytes.read(path: path) {
        case .success(let bytes):
            do {
                return try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
            } catch {
                throw StartFailure(message: "\(what) \(path) is not JSON: \(error)")
            }
        case .failure(let error): throw StartFailure(message: "cannot read \(what) \(path): \(error.text)")
        }
    }

    // MARK: the end of a unit of work

    /// Makes the unit's changes durable, then hands their events to the stdio host: no face
    /// answers a request whose change could be lost. When the state cannot be saved, the world
    /// is rolled back to what the disk holds, the events of the lost change are dropped, and
    /// the face answers with the error instead. Only `Host.perform` calls it.
    func commit() throws(Host.NotDurable) {
        if let directory = stateDirectory {
            let change = owners.takeChange()
            if !change.isEmpty {
                do {
                    try directory.append(change.record(sequence: sequence + 1))
                } catch {
                    logError(error.message)
                    pendingEvents.removeAll()
                    // A parked call settled by the lost change is still owed an answer: that it failed.
                    for (address, _) in pendingCalls.take() {
                        eventSink?.deliver(
                            reply: address,
                            outcome: .failure(.rejection(code: "STATE_NOT_SAVED", message: error.message, detail: nil)))
                    }
                    // A call the lost change parked gets the error from its face: it waits no more.
                    pendingCalls.unitLost()
                    rollBack(to: directory)
                    throw Host.NotDurable(reason: error.message)
                }
                sequence += 1
                // The change is durable in the journal already: a failed compaction loses nothing.
                if directory.journalBytes > compactionThreshold {
                    do { try compact(directory) } catch { logError(error.message) }
                }
            }
        }
        pendingCalls.unitCommitted()
        let events = pendingEvents
        pendingEvents.removeAll()
        for (event, params) in events { eventSink?.deliver(event: event, params: params) }
        for (address, outcome) in pendingCalls.take() { eventSink?.deliver(reply: address, outcome: outcome) }
    }

    /// The world as the disk holds it (snapshot and journal). What the disk does not hold (a
    /// journey in progress, whether JS is listening) is kept as it is.
    private func rollBack(to directory: StateDirectory) {
        do {
            if let saved = try directory.load() {
                try owners.restore(try SavedState.entries(saved).0, rollingBack: true)
            }
            owners.settle()
        } catch {
            logError("rolling back to \(directory.file) failed: \(error)")
        }
    }

    /// Folds the journal into a new snapshot of everything.
    func compact(_ directory: StateDirectory) throws(StateDirectory.Failure) {
        let bytes = JSONWriter().bytes(SavedState.snapshot(owners.entries, sequence: sequence))
        try directory.compact(bytes)
        compactionThreshold = max(Self.minimumCompaction, 2 * Int64(bytes.count))
    }

    // MARK: native modules

    /// What calling a native method gives: its answer, or a wait the face schedules first.
    public enum Invocation: Sendable {
        case settled(Result<JSONValue, BridgeError>)
        /// The method settles only after a wait (`start()` with `--start-delay`, as the iOS
        /// sample's `asyncAfter`): the face waits with the world released, letting other units
        /// through, then performs `settle(_:)` as a unit of its own.
        case later(Later)
        /// The call waits for JS (a prompt it must answer): its answer is delivered to the
        /// event sink as a reply to the address it was called with, once a later call settles it.
        case parked
    }

    /// A native call that settles after `seconds`.
    public struct Later: Sendable {
        public let seconds: Double
        let wireName: String
        let args: [JSONValue]
        /// The answer already given, owed late by a fault (latency, a timeout): the wait is the
        /// network's, not the method's.
        var answer: Result<JSONValue, BridgeError>? = nil
    }

    /// Calls a native method by its wire name (`Host.View.wireNames` lists them). `replyTo` is
    /// where a parked call's answer goes (the face's address for this call: the JSON-RPC id);
    /// without one (a notification) a call may still park, and its answer is dropped when it settles.
    public func invoke(_ wireName: String, _ args: [JSONValue], replyTo: JSONValue? = nil) -> Invocation {
        guard let method = catalog.method(wireName) else { preconditionFailure("no native method \(wireName)") }
        if let park = method.park {
            let ticket = pendingCalls.ticket(wireName: wireName, address: replyTo ?? .null)
            do throws(BridgeError) {
                if let answer = try park(args, ticket) {
                    pendingCalls.discard(ticket)
                    return .settled(.success(answer))
                }
                return .parked
            } catch {
                pendingCalls.discard(ticket)
                return .settled(.failure(error))
            }
        }
        if method.delay > 0 { return .later(Later(seconds: method.delay, wireName: wireName, args: args)) }
        faultPlan.discardEffect()
        let answer = Result { () throws(BridgeError) in try method.call(args) }
        switch faultPlan.takeEffect() {
        case .delay(let seconds)?, .timeout(let seconds)?:
            return .later(Later(seconds: seconds, wireName: wireName, args: args, answer: answer))
        case .drop?, nil: return .settled(answer)
        }
    }

    /// The native call a wait was scheduled for, once the wait is over.
    public func settle(_ later: Later) -> Result<JSONValue, BridgeError> {
        if let answer = later.answer { return answer }
        return Result { () throws(BridgeError) in try catalog.method(later.wireName)!.call(later.args) }
    }

    // MARK: saved state

    /// Restores what the disk holds, then writes it back as one snapshot with an empty journal:
    /// what a failed commit rolls back to is on disk from the start, and a directory that cannot
    /// be written stops the start here rather than failing the first change.
    private func restoreState(recovery: StateDirectory.Recovery) throws(StartFailure) {
        guard let directory = stateDirectory else { return }
        embedded.tracksStateChanges = true
        do {
            if let saved = try directory.load(recovery: recovery) {
                do {
                    let (entries, sequence) = try SavedState.entries(saved)
                    try owners.restore(entries, rollingBack: false)
                    self.sequence = sequence
                } catch {
                    throw StartFailure(
                        message:
                            "the state file \(directory.file) is invalid: \(error.message); move it away to start afresh"
                    )
                }
                logInfo("state restored from \(directory.file)")
            }
            try compact(directory)
        } catch let failure as StateDirectory.Failure {
            throw StartFailure(message: failure.message)
        } catch let failure as StartFailure {
            throw failure
        } catch {
            throw StartFailure(message: "\(error)")
        }
        owners.settle()
    }

    public var stateDirectoryPath: String? { stateDirectory?.path }
}
