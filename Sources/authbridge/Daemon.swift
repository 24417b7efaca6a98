import AuthBridgeCore
import BridgeSDK
import EmbeddedAM
import IdentityServer
import JSONRPC

/// Wires the layers together for one process: clock and random source, the embedded server,
/// the SDK and token sync, the flavor's bridge, the RPC methods around them, and the state
/// directory when there is one.
final class Daemon {
    static let protocolVersion = "1.0"
    static let version = "0.1.0"
    static let stateFormat = "authbridge-state"
    static let stateVersion: Int64 = 1

    let options: Options
    let rpc: RPCServer
    let clock: Clock
    let random: RandomSource
    let server: EmbeddedAM
    let sdk: AuthSDK
    let sync: TokenSync
    let stateDirectory: StateDirectory?
    /// Held while a chunk of input is handled; a shutdown signal takes it to find no request half done.
    let lock = Lock()
    private var framing: () -> Framing? = { nil }
    /// daemon.hello's answer never changes once the framing is known; built once.
    private var helloResult: JSONValue?
    /// The flavor's way of settling a resumed suspended journey (emulator.resumeJourney).
    private(set) var resumeJourney: (String) throws(BridgeError) -> JSONValue = { _ throws(BridgeError) in .null }

    init(options: Options) throws(StartFailure) {
        self.options = options
        random = options.seed.map { SeededRandomSource(seed: $0) } ?? SystemRandomSource()
        switch options.clock {
        case .system: clock = SystemClock()
        case .virtual(let epoch): clock = VirtualClock(epoch: epoch)
        }
        server = EmbeddedAM(clock: clock, random: random)
        for path in options.journeyFiles {
            for journey in try Self.loadJourneys(path) { server.add(journey: journey) }
        }
        var sdkOptions = SDKOptions()
        sdkOptions.realm = server.config.realm
        sdkOptions.cookieName = server.config.cookieName
        for (flag, name) in [("--auth-service", options.authServiceName), ("--registration-service", options.registrationServiceName)] {
            guard server.journeyNames.contains(name) else {
                throw StartFailure(message: "\(flag) names no journey \(name) (available: \(server.journeyNames.joined(separator: ", ")))")
            }
        }
        sdkOptions.authServiceName = options.authServiceName
        sdkOptions.registrationServiceName = options.registrationServiceName
        sdk = AuthSDK(server: server, options: sdkOptions, clock: clock, random: random)
        sync = TokenSync(tokens: sdk.tokens, random: random)
        rpc = RPCServer(limits: RPCServer.Limits(maxDepth: options.maxDepth))
        stateDirectory = try options.stateDirectory.map { path throws(StartFailure) in try StateDirectory(path: path) }
        let bridge = Self.bridge(options: options, sdk: sdk)
        resumeJourney = bridge.resume
        registerBridge(bridge.methods)
        registerBridge(TokenSyncModule(sdk: sdk, sync: sync, clock: clock).methods)
        registerDaemonMethods()
        registerEmulatorMethods()
        try restoreState()
    }

    func run(input: Int32, output: Int32) -> StdioConnection.End {
        let connection = StdioConnection(
            inputFD: input, outputFD: output, maxFrameBytes: options.maxFrameBytes, framing: options.framing)
        framing = { [unowned connection] in connection.framing }
        // Events go straight to the writer: during a request they land before its response.
        sync.emit = { [unowned connection] event, params in
            connection.writer.send(message: JSONRPCOutgoing.notification(method: event, params: params))
        }
        return connection.run(lock: lock) { event, writer in
            rpc.handle(event, sink: writer)
            saveState()
            return !rpc.stopRequested
        }
    }

    // MARK: bridge

    /// The native module of the platform the daemon stands in for (docs/flavors.md).
    private static func bridge(options: Options, sdk: AuthSDK)
        -> (methods: [BridgeMethod], resume: (String) throws(BridgeError) -> JSONValue)
    {
        switch options.flavor {
        case "rn-android":
            let bridge = ReactNativeAndroidBridge(sdk: sdk, callbacks: options.callbacks)
            return (bridge.methods, { id throws(BridgeError) in try bridge.resume(suspendedId: id) })
        case "flutter-ios", "flutter-android":
            let bridge = FlutterBridge(sdk: sdk, platform: options.flavor == "flutter-ios" ? .ios : .android, callbacks: options.callbacks)
            return (bridge.methods, { id throws(BridgeError) in try bridge.resume(suspendedId: id) })
        default:
            let bridge = ReactNativeIOSBridge(sdk: sdk, startDelay: options.startDelay, callbacks: options.callbacks)
            return (bridge.methods, { id throws(BridgeError) in try bridge.resume(suspendedId: id) })
        }
    }

    /// `--journeys FILE`: a file that cannot be read or holds a bad journey stops the start,
    /// naming the file, the journey, the node and what is wrong.
    private static func loadJourneys(_ path: String) throws(StartFailure) -> [JourneyDefinition] {
        let bytes: [UInt8]
        switch FileBytes.read(path: path) {
        case .success(let data): bytes = data
        case .failure(let error): throw StartFailure(message: "cannot read the journeys file \(path): \(error.text)")
        }
        do {
            return try JourneyDefinition.load(fileText: String(decoding: bytes, as: UTF8.self))
        } catch {
            throw StartFailure(message: "the journeys file \(path) is invalid: \(error.description)")
        }
    }

    private func registerBridge(_ methods: [BridgeMethod]) {
        for method in methods {
            rpc.register(method.name) { call throws(JSONRPCError) in
                let args: [JSONValue]
                switch call.params {
                case nil: args = []
                case .array(let list)?: args = list
                case let other?:
                    throw .invalidParams(
                        "bridge methods take positional params (an array of the native arguments), got \(other.typeName)")
                }
                return try Self.invoke(method, args)
            }
        }
    }

    static func invoke(_ method: BridgeMethod, _ args: [JSONValue]) throws(JSONRPCError) -> JSONValue {
        do {
            return try method.call(args)
        } catch {
            switch error {
            case .invalidParams(let reason, let param): throw .invalidParams(reason, param: param)
            case .rejection(let code, let message, let detail):
                throw .nativeRejection(code: code, message: message, detail: detail)
            }
        }
    }

    // MARK: daemon.*

    private func registerDaemonMethods() {
        rpc.register("daemon.hello") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            if let helloResult { return helloResult }
            let result: JSONValue = [
                "protocolVersion": .string(Self.protocolVersion), "daemonVersion": .string(Self.version),
                "flavor": .string(options.flavor), "framing": .string(framing()?.rawValue ?? "ndjson"),
                "methods": .array(rpc.methodNames.map { .string($0) }),
                "events": .array(TokenSync.events.map { .string($0) }),
                "server": [
                    "kind": "embedded", "realm": .string(server.config.realm),
                    "journeys": .array(server.journeyNames.map { .string($0) }),
                ],
                "deterministic": .bool(options.seed != nil && options.clock != .system),
                "stateDir": JSONValue(stateDirectory?.path),
            ]
            if framing() != nil { helloResult = result }
            return result
        }
        // A liveness check for hosts (a Jest global setup waiting for the daemon), and the
        // cheapest call there is: what the benchmark compares with the floor.
        rpc.register("daemon.ping") { call throws(JSONRPCError) in
            _ = try NamedParams(call)
            return [:]
        }
        rpc.register("daemon.shutdown") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            logInfo("shutdown requested by the host")
            rpc.stopRequested = true
            return .null
        }
    }

    // MARK: saved state

    /// Everything an app relaunch keeps: the native credentials, the server's users, sessions and
    /// grants, and, in deterministic mode, where the virtual clock and the seeded stream stood.
    private var stateSnapshot: JSONValue {
        var state: JSONObject = ["format": .string(Self.stateFormat), "version": .int(Self.stateVersion)]
        if let virtual = clock as? VirtualClock { state["clock"] = ["now": .double(virtual.now)] }
        if let seeded = random as? SeededRandomSource { state["random"] = ["state": .string(String(seeded.state))] }
        state["native"] = sdk.tokens.snapshot
        state["server"] = server.snapshot
        return .object(state)
    }

    private func restoreState() throws(StartFailure) {
        guard let directory = stateDirectory, let saved = try directory.load() else { return }
        do {
            try apply(saved)
        } catch {
            throw StartFailure(message: "the state file \(directory.file) is invalid: \(error.message); move it away to start afresh")
        }
        logInfo("state restored from \(directory.file)")
    }

    private func apply(_ saved: JSONValue) throws(StateError) {
        let reader = try StateReader(saved, path: "")
        guard try reader.string("format") == Self.stateFormat else { throw StateError("format: not an authbridge state file") }
        let version = try reader.int("version")
        guard version == Self.stateVersion else {
            throw StateError("version: \(version) is not supported (this authbridge reads version \(Self.stateVersion))")
        }
        try sdk.tokens.restore(try reader.reader("native"))
        try server.restore(try reader.reader("server"))
        if reader.has("clock"), let virtual = clock as? VirtualClock {
            virtual.resume(at: try reader.reader("clock").double("now"))
        }
        if reader.has("random"), let seeded = random as? SeededRandomSource {
            let text = try reader.reader("random").string("state")
            guard let state = UInt64(text) else { throw StateError("random.state: expected an unsigned integer") }
            seeded.state = state
        }
    }

    /// Called after every frame: writes only when something changed.
    private func saveState() {
        guard let directory = stateDirectory else { return }
        do {
            try directory.save(JSONWriter().bytes(stateSnapshot))
        } catch {
            logError(error.message)
        }
    }
}
