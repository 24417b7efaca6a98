import AuthBridgeCore
import Host
import JSONRPC
import NativeModules

/// The Host as JSON-RPC 2.0 on stdin/stdout: the native modules' methods under their wire
/// names, `daemon.*` and `emulator.*`. Each chunk of input is one Host transaction; the events
/// it causes are written before the responses that follow them.
public final class RPCFace {
    public static let protocolVersion = "1.0"

    public let host: Host
    public let server: RPCServer
    /// Set while serving: the framing the host chose (daemon.hello reports it).
    private(set) var connection: RPCConnection?
    /// daemon.hello's answer never changes once the framing is known; built once.
    var helloResult: JSONValue?

    public init(host: Host, limits: RPCServer.Limits = RPCServer.Limits()) {
        self.host = host
        server = RPCServer(limits: limits)
        for wireName in host.catalog.wireNames {
            let method = host.catalog.method(wireName)!
            register(wireName) { [unowned host] call throws(JSONRPCError) in
                try Self.settle { () throws(BridgeError) in try host.invoke(method, try Self.positional(call)) }
            }
        }
        registerDaemonMethods()
        registerEmulatorMethods()
    }

    /// Serves the host on two descriptors until input ends, `daemon.shutdown`, or output closes.
    public func serve(input: Int32, output: Int32, maxFrameBytes: Int, framing: Framing?) -> StdioConnection.End {
        let stdio = StdioConnection(inputFD: input, outputFD: output, maxFrameBytes: maxFrameBytes, framing: framing)
        let connection = RPCConnection(stdio: stdio, server: server)
        self.connection = connection
        let events = WriterEventSink(stdio.writer)
        host.eventSink = events
        defer { host.eventSink = nil }
        return withExtendedLifetime(events) {
            connection.run { [host] work in host.transact { work() } }
        }
    }

    var framing: Framing? { connection?.stdio.framing }

    /// Registers a method whose change is durable before its response is written: after the
    /// handler (whether it resolved or was rejected, since a failed login changes counters too),
    /// the Host commits; when it cannot, the change is undone and the call answers −32001.
    func register(_ name: String, _ handler: @escaping RPCHandler) {
        server.register(name) { [unowned host] call throws(JSONRPCError) in
            let outcome = Result { () throws(JSONRPCError) -> JSONValue in try handler(call) }
            if let failure = Self.commit(host) { throw .stateNotSaved(failure.reason) }
            return try outcome.get()
        }
    }

    /// Bridge methods take positional params: the arguments JS passes to the native method.
    static func positional(_ call: RPCCall) throws(BridgeError) -> [JSONValue] {
        switch call.params {
        case nil: return []
        case .array(let list)?: return list
        case let other?:
            throw .invalidParams(
                reason: "bridge methods take positional params (an array of the native arguments), got \(other.typeName)", param: nil)
        }
    }

    private static func commit(_ host: Host) -> Host.NotDurable? {
        do {
            try host.commit()
            return nil
        } catch {
            return error
        }
    }

    /// A native call's outcome as JSON-RPC: a rejection is −32000 with the native code in `data`.
    static func settle(_ call: () throws(BridgeError) -> JSONValue) throws(JSONRPCError) -> JSONValue {
        do {
            return try call()
        } catch {
            switch error {
            case .invalidParams(let reason, let param): throw .invalidParams(reason, param: param)
            case .rejection(let code, let message, let detail):
                throw .nativeRejection(code: code, message: message, detail: detail)
            }
        }
    }
}

/// The stdio host as the Host's event sink: events become notifications in the writer's buffer,
/// ahead of the response being built, and leave when the transaction flushes.
final class WriterEventSink: EventSink {
    private let writer: FrameWriter

    init(_ writer: FrameWriter) { self.writer = writer }

    func deliver(event: String, params: JSONValue) {
        writer.send(message: JSONRPCOutgoing.notification(method: event, params: params))
    }

    func flush() { writer.flush() }
}

extension JSONRPCError {
    /// A change that could not be made durable (disk full, directory read-only): it was undone.
    public static let stateNotSavedCode = -32001

    static func stateNotSaved(_ reason: String) -> JSONRPCError {
        JSONRPCError(
            code: stateNotSavedCode, message: "State not saved: the change was undone (\(reason))",
            data: ["reason": .string(reason)])
    }
}
