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
    /// daemon.hello's answer never changes once the framing is known; built and encoded once.
    var helloResult: EncodedResult?
    /// Set with `trace`: every call, its outcome and every event are traced (redacted).
    let tracer: Tracer?

    /// `trace` traces every request, response and event through `Log.shared.trace`.
    public init(host: Host, limits: RPCServer.Limits = RPCServer.Limits(), trace: Bool = false) {
        self.host = host
        server = RPCServer(limits: limits)
        tracer = trace ? Tracer() : nil
        for wireName in host.catalog.wireNames {
            let method = host.catalog.method(wireName)!
            register(wireName) { [unowned self] call throws(JSONRPCError) in
                let args = try Self.arguments(call)
                do throws(JSONRPCError) {
                    return try Self.settle { () throws(BridgeError) in try self.host.invoke(method, args) }
                } catch {
                    throw advised(error, method: wireName, args: args)
                }
            }
        }
        registerDaemonMethods()
        registerEmulatorMethods()
    }

    /// Registers a method whose change is durable before its response is written: after the
    /// handler (whether it resolved or was rejected, since a failed login changes counters too),
    /// the Host commits; when it cannot, the change is undone and the call answers −32001. The
    /// call is traced when tracing is on (no cost when it is off).
    func register(_ name: String, _ handler: @escaping RPCHandler) {
        server.register(name, served(handler, traced: { $0 }))
    }

    /// The same, for a method whose result comes encoded (daemon.hello).
    func registerEncoded(_ name: String, _ handler: @escaping RPCEncodedHandler) {
        server.registerEncoded(name, served(handler, traced: \.value))
    }

    private func served<Answer>(
        _ handler: @escaping (RPCCall) throws(JSONRPCError) -> Answer, traced value: @escaping (Answer) -> JSONValue
    ) -> (RPCCall) throws(JSONRPCError) -> Answer {
        let durable = { [unowned host] (call: RPCCall) throws(JSONRPCError) -> Answer in
            let outcome = Result { () throws(JSONRPCError) -> Answer in try handler(call) }
            if let failure = Self.commit(host) { throw .stateNotSaved(failure.reason) }
            return try outcome.get()
        }
        guard let tracer else { return durable }
        return { (call: RPCCall) throws(JSONRPCError) -> Answer in
            let start = tracer.request(call)
            do throws(JSONRPCError) {
                let answer = try durable(call)
                tracer.response(call, since: start, .success(value(answer)))
                return answer
            } catch {
                tracer.response(call, since: start, .failure(error))
                throw error
            }
        }
    }

    /// A bridge method's error, with what to do about it where the native answer cannot say
    /// (it must stay byte-identical to the device's): a warning on stderr for a call before
    /// `start()`, and a hint in `data` for an object where a JSON string is expected.
    private func advised(_ error: JSONRPCError, method: String, args: [JSONValue]) -> JSONRPCError {
        let startMethod = host.configuration.flavor.startMethod
        // Only the old bridge's bare-named methods need its `start()`; namespaced modules do not.
        if error.code == JSONRPCError.nativeRejectionCode, method != startMethod, !method.contains("."), !host.sdk.isStarted {
            logWarn("\(method)() was rejected because the SDK is not initialized: call \(startMethod)() first")
        }
        if error.code == JSONRPCError.invalidParamsCode, case .object(var data)? = error.data, data["param"] == "0",
           let first = args.first, first.objectValue != nil || first.arrayValue != nil,
           data["reason"]?.stringValue?.hasSuffix("must be a string, got \(first.typeName)") == true {
            let what = method == "next" ? "step" : "value"
            data["hint"] = .string("pass a JSON string, not \(first.typeName == "array" ? "an array" : "an object"): \(method)(JSON.stringify(\(what)))")
            return JSONRPCError(code: error.code, message: error.message, data: .object(data))
        }
        return error
    }

    /// Serves the host on two descriptors until input ends, `daemon.shutdown`, or output closes.
    public func serve(input: Int32, output: Int32, maxFrameBytes: Int, framing: Framing?) -> StdioConnection.End {
        let stdio = StdioConnection(inputFD: input, outputFD: output, maxFrameBytes: maxFrameBytes, framing: framing)
        let connection = RPCConnection(stdio: stdio, server: server)
        self.connection = connection
        let events = WriterEventSink(stdio.writer, tracer: tracer)
        host.attach(events)
        defer { host.attach(nil) }
        // RPCConnection's loop, with the face's sink between the server and the writer.
        let sink = FaceSink(writer: stdio.writer, methodNames: { [server] in server.methodNames }, tracer: tracer)
        return withExtendedLifetime(events) {
            stdio.run(transaction: { [host] work in host.transact { work() } }) { [server] event in
                RPCConnection.handle(event, server: server, sink: sink)
                return !server.stopRequested
            }
        }
    }

    var framing: Framing? { connection?.stdio.framing }

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

    static func arguments(_ call: RPCCall) throws(JSONRPCError) -> [JSONValue] {
        do {
            return try positional(call)
        } catch {
            guard case .invalidParams(let reason, let param) = error else { throw .internalError("\(error)") }
            throw .invalidParams(reason, param: param)
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
            case .typedRejection(let code, let message, let userInfo):
                throw JSONRPCError(
                    code: JSONRPCError.nativeRejectionCode, message: message,
                    data: ["code": .string(code), "userInfo": userInfo])
            case .notImplemented(let reason): throw .notImplemented(reason)
            }
        }
    }
}

/// The stdio host as the Host's event sink: events become notifications in the writer's buffer,
/// ahead of the response being built, and leave when the transaction flushes.
final class WriterEventSink: EventSink {
    private let writer: FrameWriter
    private let tracer: Tracer?

    init(_ writer: FrameWriter, tracer: Tracer? = nil) {
        self.writer = writer
        self.tracer = tracer
    }

    func deliver(event: String, params: JSONValue) {
        tracer?.event(event, params)
        writer.send(message: JSONRPCOutgoing.notification(method: event, params: params))
    }

    func flush() { writer.flush() }
}

extension JSONRPCError {
    /// A native method the module declares but does not implement (a device would crash).
    public static let notImplementedCode = -32002

    static func notImplemented(_ reason: String) -> JSONRPCError {
        JSONRPCError(code: notImplementedCode, message: "Native method not implemented", data: ["reason": .string(reason)])
    }

    /// A change that could not be made durable (disk full, directory read-only): it was undone.
    public static let stateNotSavedCode = -32001

    static func stateNotSaved(_ reason: String) -> JSONRPCError {
        JSONRPCError(
            code: stateNotSavedCode, message: "State not saved: the change was undone (\(reason))",
            data: ["reason": .string(reason)])
    }
}
