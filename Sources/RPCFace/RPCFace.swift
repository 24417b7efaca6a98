import AuthBridgeCore
import Host
import JSONRPC
import NativeModules

/// The Host as JSON-RPC 2.0 on stdin/stdout: the native modules' methods under their wire
/// names, `daemon.*` and `emulator.*`. Each request that touches the world is one Host unit of
/// work, answered once its change is durable; the events it causes are written before its
/// response, and what a chunk of input caused leaves in one write.
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
    /// How the face waits for a native method that settles later (`World.Invocation.later`),
    /// with the world released so other faces' units run meanwhile: it sleeps.
    public var wait: (_ seconds: Double) -> Void = { seconds in ProcessControl.sleep(seconds: seconds) }

    /// `trace` traces every request, response and event through `Log.shared.trace`.
    public init(host: Host, limits: RPCServer.Limits = RPCServer.Limits(), trace: Bool = false) {
        self.host = host
        server = RPCServer(limits: limits)
        tracer = trace ? Tracer() : nil
        server.unknownMethodData = { [unowned server] method in
            MethodSuggestion.closest(to: method, among: server.methodNames).map { ["suggestion": .string($0)] }
        }
        for wireName in host.view.wireNames {
            server.registerDeferrable(
                wireName,
                traced(
                    { [unowned self] call throws(JSONRPCError) in
                        try native(wireName, Self.arguments(call), replyTo: call.id?.json)
                    }, value: { $0 ?? "(answered when it settles)" }))
        }
        registerDaemonMethods()
        registerEmulatorMethods()
    }

    /// Registers a method, traced when tracing is on (no cost when it is off). A method that
    /// touches the world does so through `unit`, which answers only what is durable.
    func register(_ name: String, _ handler: @escaping RPCHandler) {
        server.register(name, traced(handler, value: { $0 }))
    }

    /// The same, for a method whose result comes encoded (daemon.hello).
    func registerEncoded(_ name: String, _ handler: @escaping RPCEncodedHandler) {
        server.registerEncoded(name, traced(handler, value: \.value))
    }

    private func traced<Answer>(
        _ handler: @escaping (RPCCall) throws(JSONRPCError) -> Answer, value: @escaping (Answer) -> JSONValue
    ) -> (RPCCall) throws(JSONRPCError) -> Answer {
        let timeline = host.timeline
        guard tracer != nil || timeline != nil else { return handler }
        return { [tracer, unowned self] (call: RPCCall) throws(JSONRPCError) -> Answer in
            let start = tracer?.request(call) ?? ContinuousClock.now
            let began = timeline?.now ?? 0
            concern = nil
            let outcome: Result<Answer, JSONRPCError>
            do throws(JSONRPCError) { outcome = .success(try handler(call)) } catch { outcome = .failure(error) }
            if let tracer { tracer.response(call, since: start, outcome.map(value)) }
            if let timeline {
                TimelineRecord.call(call, began: began, since: start, outcome.map(value), concern, into: timeline)
            }
            return try outcome.get()
        }
    }

    /// What the current call's units concerned (`UnitConcern`), for its timeline entry: the
    /// stdio face calls one method at a time, on its own thread.
    private var concern: Timeline.Concern?

    /// One unit of work on the Host (`Host.perform`): its answer once durable; −32001 when the
    /// change could not be saved (the world was rolled back). The face's single write per
    /// chunk carries the unit's events out, ahead of the response.
    func unit<T: Sendable>(_ work: (World) -> T) throws(JSONRPCError) -> T {
        let (outcome, concern) = host.performNoting(flushing: false, work)
        if let concern { self.concern = concern }
        switch outcome {
        case .success(let answer): return answer
        case .failure(let failure): throw .stateNotSaved(failure.reason)
        }
    }

    /// A native method: one unit, or, for a method that settles later (`start()` with
    /// `--start-delay`), the wait with the world released (the app's `asyncAfter` lets other
    /// faces' calls through) and then a unit of its own. A call that waits for JS (a prompt) is
    /// parked: nil now, and its response is written when a later call settles it.
    private func native(
        _ wireName: String, _ args: [JSONValue], replyTo: JSONValue?
    ) throws(JSONRPCError)
        -> JSONValue?
    {
        var (invocation, started) = try unit { world in
            (world.invoke(wireName, args, replyTo: replyTo), world.sdk.isStarted)
        }
        let outcome: Result<JSONValue, BridgeError>
        switch invocation {
        case .settled(let settled): outcome = settled
        case .later(let later):
            wait(later.seconds)
            (outcome, started) = try unit { world in (world.settle(later), world.sdk.isStarted) }
        case .parked: return nil
        }
        switch outcome {
        case .success(let value): return value
        case .failure(let error): throw advised(error, method: wireName, args: args, started: started)
        }
    }

    /// A bridge method's error as JSON-RPC, with what to do about it where the native answer
    /// cannot say (it must stay byte-identical to the device's): a warning on stderr for a call
    /// before `start()`, and a hint in `data` for an object where a JSON string is expected.
    private func advised(_ error: BridgeError, method: String, args: [JSONValue], started: Bool) -> JSONRPCError {
        let startMethod = host.configuration.flavor.startMethod
        // Only the old bridge's bare-named methods need its `start()`; namespaced modules do not.
        if error.isRejection, method != startMethod, !method.contains("."), !started {
            logWarn("\(method)() was rejected because the SDK is not initialized: call \(startMethod)() first")
        }
        var answer = Self.json(error)
        if case .invalidParams(_, "0"?, let read?) = error, read.expected == .string,
            case .kind(let got) = read.found, got == .object || got == .array, case .object(var data)? = answer.data
        {
            let what = method == "next" ? "step" : "value"
            data["hint"] = .string(
                "pass a JSON string, not \(got == .array ? "an array" : "an object"): \(method)(JSON.stringify(\(what)))"
            )
            answer.data = .object(data)
        }
        return answer
    }

    /// Serves the host on two descriptors until input ends, `daemon.shutdown`, or output closes.
    public func serve(
        input: Int32, output: Int32, maxFrameBytes: Int, framing: Framing?,
        maxQueuedOutput: Int = OutputQueue.defaultBound
    ) -> StdioConnection.End {
        let stdio = StdioConnection(
            inputFD: input, outputFD: output, maxFrameBytes: maxFrameBytes, framing: framing,
            maxQueuedOutput: maxQueuedOutput)
        let connection = RPCConnection(stdio: stdio, server: server)
        self.connection = connection
        let events = WriterEventSink(stdio.writer, tracer: tracer, timeline: host.timeline)
        host.attach(events)
        defer { host.attach(nil) }
        // Every write to the stdio host goes through the Host: HTTP's units deliver events to the
        // same writer.
        let output: StdioConnection.Output = { [host] write in host.output(write) }
        let sink = FaceSink(writer: stdio.writer, output: output, tracer: tracer)
        return withExtendedLifetime(events) { connection.run(output: output, sink: sink) }
    }

    var framing: Framing? { connection?.stdio.framing }

    /// Bridge methods take positional params: the arguments JS passes to the native method.
    static func arguments(_ call: RPCCall) throws(JSONRPCError) -> [JSONValue] {
        switch call.params {
        case nil: return []
        case .array(let list)?: return list
        case let other?:
            throw .invalidParams(
                "bridge methods take positional params (an array of the native arguments), got \(other.typeName)",
                param: nil)
        }
    }

    /// A native call's outcome as JSON-RPC: a rejection is −32000 with the native code in `data`.
    static func json(_ error: BridgeError) -> JSONRPCError {
        switch error {
        case .invalidParams(let reason, let param, _): return .invalidParams(reason, param: param)
        case .rejection(let code, let message, let detail):
            return .nativeRejection(code: code, message: message, detail: detail)
        case .typedRejection(let code, let message, let userInfo):
            return JSONRPCError(
                code: JSONRPCError.nativeRejectionCode, message: message,
                data: ["code": .string(code), "userInfo": userInfo])
        case .notImplemented(let reason): return .notImplemented(reason)
        }
    }
}

extension RequestID {
    /// The id a parked call was made with, back from the address the world kept.
    init?(_ address: JSONValue) {
        switch address {
        case .string(let text): self = .string(text)
        case .int(let number): self = .int(number)
        default: return nil
        }
    }
}

extension BridgeError {
    fileprivate var isRejection: Bool {
        switch self {
        case .rejection, .typedRejection: return true
        case .invalidParams, .notImplemented: return false
        }
    }
}

/// The stdio host as the Host's event sink: events become notifications in the writer's buffer,
/// ahead of the response of the request that caused them, and leave with the chunk's write (or,
/// when another face's unit caused them, with the unit's flush; that unit then waits for them to
/// be written before its face answers).
final class WriterEventSink: EventSink {
    private let writer: FrameWriter
    private let tracer: Tracer?
    private let timeline: Timeline?

    init(_ writer: FrameWriter, tracer: Tracer? = nil, timeline: Timeline? = nil) {
        self.writer = writer
        self.tracer = tracer
        self.timeline = timeline
    }

    private var delivered = false

    func deliver(event: String, params: JSONValue) {
        tracer?.event(event, params)
        if let timeline {
            timeline.record(.event, at: timeline.now) { Timeline.Shown(name: event, request: Redaction.value(params)) }
        }
        writer.send(message: JSONRPCOutgoing.notification(method: event, params: params))
        delivered = true
    }

    /// A parked call's answer, as the response to the request that parked it (a notification
    /// parked nothing anyone waits for: its answer is dropped).
    func deliver(reply address: JSONValue, outcome: Result<JSONValue, BridgeError>) {
        guard let id = RequestID(address) else { return }
        let answer = outcome.mapError(RPCFace.json)
        tracer?.reply(address, answer)
        switch answer {
        case .success(let result): writer.send(message: JSONRPCOutgoing.response(id: id, result: result))
        case .failure(let error): writer.send(message: JSONRPCOutgoing.error(id: id, error))
        }
        delivered = true
    }

    func flush() { writer.flush() }

    func takeWrittenWait() -> (@Sendable () -> Void)? {
        defer { delivered = false }
        return delivered ? writer.writtenWait : nil
    }

    var isAnswering: Bool { writer.isAnswering }
}

extension JSONRPCError {
    /// A native method the module declares but does not implement (a device would crash).
    public static let notImplementedCode = -32002

    static func notImplemented(_ reason: String) -> JSONRPCError {
        JSONRPCError(
            code: notImplementedCode, message: "Native method not implemented", data: ["reason": .string(reason)])
    }

    /// A change that could not be made durable (disk full, directory read-only): it was undone.
    public static let stateNotSavedCode = -32001

    static func stateNotSaved(_ reason: String) -> JSONRPCError {
        JSONRPCError(
            code: stateNotSavedCode, message: "State not saved: the change was undone (\(reason))",
            data: ["reason": .string(reason)])
    }
}
