import AuthBridgeCore
import BridgeSDK
import EmbeddedAM
import Foundation
import IdentityServer
import JSONRPC

/// Wires the layers together for one process: clock and random source, the embedded server,
/// the SDK, the flavor's bridge, and the RPC methods around them.
final class Daemon {
    static let protocolVersion = "1.0"
    static let version = "0.1.0"

    let options: Options
    let rpc: RPCServer
    let clock: Clock
    let server: EmbeddedAM
    let sdk: AuthSDK
    /// Held while a chunk of input is handled; a shutdown signal takes it to find no request half done.
    let lock = NSLock()
    private var framing: () -> Framing? = { nil }

    init(options: Options) {
        self.options = options
        let random: RandomSource = options.seed.map { SeededRandomSource(seed: $0) } ?? SystemRandomSource()
        switch options.clock {
        case .system: clock = SystemClock()
        case .virtual(let epoch): clock = VirtualClock(epoch: epoch)
        }
        server = EmbeddedAM(clock: clock, random: random)
        var sdkOptions = SDKOptions()
        sdkOptions.realm = server.config.realm
        sdkOptions.cookieName = server.config.cookieName
        sdk = AuthSDK(server: server, options: sdkOptions, clock: clock, random: random)
        rpc = RPCServer(limits: RPCServer.Limits(maxDepth: options.maxDepth))
        registerBridge(ReactNativeIOSBridge(sdk: sdk, startDelay: options.startDelay).methods)
        registerDaemonMethods()
        registerEmulatorMethods()
    }

    func run(input: Int32, output: Int32) -> StdioConnection.End {
        let connection = StdioConnection(
            inputFD: input, outputFD: output, maxFrameBytes: options.maxFrameBytes, framing: options.framing)
        framing = { [unowned connection] in connection.framing }
        return connection.run(lock: lock) { event, writer in
            rpc.handle(event, sink: writer)
            return !rpc.stopRequested
        }
    }

    // MARK: bridge

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

    private static func invoke(_ method: BridgeMethod, _ args: [JSONValue]) throws(JSONRPCError) -> JSONValue {
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
            return [
                "protocolVersion": .string(Self.protocolVersion), "daemonVersion": .string(Self.version),
                "flavor": .string(options.flavor), "framing": .string(framing()?.rawValue ?? "ndjson"),
                "methods": .array(rpc.methodNames.map { .string($0) }), "events": [],
                "server": [
                    "kind": "embedded", "realm": .string(server.config.realm),
                    "journeys": .array(server.journeyNames.map { .string($0) }),
                ],
                "deterministic": .bool(options.seed != nil && options.clock != .system),
            ]
        }
        rpc.register("daemon.shutdown") { [unowned self] call throws(JSONRPCError) in
            _ = try NamedParams(call)
            logInfo("shutdown requested by the host")
            rpc.stopRequested = true
            return .null
        }
    }

    // MARK: emulator.*

    private func registerEmulatorMethods() {
        rpc.register("emulator.advanceClock") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let seconds = try params.number("seconds")
            guard seconds >= 0 else { throw .invalidParams("seconds must not be negative", param: "seconds") }
            guard let virtual = clock as? VirtualClock else {
                throw .invalidParams("the clock is the system clock; start with --clock virtual to move time", param: "seconds")
            }
            virtual.advance(by: seconds)
            return ["now": .double(virtual.now)]
        }
        rpc.register("emulator.addUser") { [unowned self] call throws(JSONRPCError) in
            let params = try NamedParams(call)
            let username = try params.string("username")
            let password = try params.string("password")
            var attributes: JSONObject = [:]
            if let given = try params.optionalString("givenName") { attributes["givenName"] = .string(given) }
            if let family = try params.optionalString("familyName") { attributes["sn"] = .string(family) }
            if let email = try params.optionalString("email") { attributes["mail"] = .string(email) }
            return try addUser(username: username, password: password, attributes: attributes)
        }
    }

    private func addUser(username: String, password: String, attributes: JSONObject) throws(JSONRPCError) -> JSONValue {
        do {
            let user = try server.users.add(username: username, password: password, attributes: attributes)
            return ["username": .string(user.username), "id": .string(user.id)]
        } catch {
            switch error {
            case .duplicate: throw .invalidParams("a user named \(username) already exists", param: "username")
            case .emptyUsername: throw .invalidParams("username must not be empty", param: "username")
            case .emptyPassword: throw .invalidParams("password must not be empty", param: "password")
            }
        }
    }
}

/// Named params of a daemon or emulator method: an object, or nothing.
struct NamedParams {
    let object: JSONObject

    init(_ call: RPCCall) throws(JSONRPCError) {
        switch call.params {
        case nil: object = [:]
        case .object(let object)?: self.object = object
        case let other?: throw .invalidParams("\(call.method) takes named params (an object), got \(other.typeName)")
        }
    }

    func string(_ key: String) throws(JSONRPCError) -> String {
        guard let value = try optionalString(key) else { throw .invalidParams("missing \(key) (a string)", param: key) }
        return value
    }

    func optionalString(_ key: String) throws(JSONRPCError) -> String? {
        switch object[key] {
        case nil, .null?: return nil
        case .string(let s)?: return s
        case let other?: throw .invalidParams("\(key) must be a string, got \(other.typeName)", param: key)
        }
    }

    func number(_ key: String) throws(JSONRPCError) -> Double {
        switch object[key] {
        case nil: throw .invalidParams("missing \(key) (a number)", param: key)
        case let value?:
            guard let number = value.doubleValue else {
                throw .invalidParams("\(key) must be a number, got \(value.typeName)", param: key)
            }
            return number
        }
    }
}
