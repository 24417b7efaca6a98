import AuthBridgeCore

/// One call as a handler sees it.
public struct RPCCall {
    public let id: RequestID?
    public let method: String
    public let params: JSONValue?

    public init(id: RequestID?, method: String, params: JSONValue?) {
        self.id = id
        self.method = method
        self.params = params
    }
}

public typealias RPCHandler = (RPCCall) throws(JSONRPCError) -> JSONValue
/// A handler whose call may be answered later: nil sends nothing now, and whoever holds the
/// call's id writes its response when it settles (a native promise waiting for JS). Inside a
/// batch such a response leaves on its own, after the batch's array.
public typealias RPCDeferrableHandler = (RPCCall) throws(JSONRPCError) -> JSONValue?

/// Frames in, messages out: envelope validation, dispatch by method name, batches. Requests are
/// handled one at a time, in arrival order, on the caller's thread; that order is what makes
/// transcripts replay byte for byte.
public final class RPCServer {
    public struct Limits: Sendable {
        public var maxDepth: Int
        public var maxBatchLength: Int

        public init(maxDepth: Int = JSONParser.defaultMaxDepth, maxBatchLength: Int = 1000) {
            self.maxDepth = maxDepth
            self.maxBatchLength = maxBatchLength
        }
    }

    public let limits: Limits
    private enum Handler {
        case value(RPCHandler)
        case encoded(RPCEncodedHandler)
        case deferrable(RPCDeferrableHandler)
    }

    /// What one message is answered with: a message to write, or a result encoded before.
    private enum Reply {
        case message(JSONValue)
        case encoded(RequestID?, EncodedResult)

        var message: JSONValue {
            switch self {
            case .message(let message): return message
            case .encoded(let id, let result): return JSONRPCOutgoing.response(id: id, result: result.value)
            }
        }
    }

    private var handlers: [String: Handler] = [:]
    public private(set) var methodNames: [String] = []
    /// Set by a handler (daemon.shutdown) to end the session after its response is written.
    public var stopRequested = false
    /// The `data` of an unknown method's error, given its name (a face's suggestion); none by
    /// default.
    public var unknownMethodData: ((_ method: String) -> JSONValue?)?

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public func register(_ method: String, _ handler: @escaping RPCHandler) {
        add(method, .value(handler))
    }

    /// A method whose result comes encoded (`EncodedResult`): it is copied out, not written again.
    public func registerEncoded(_ method: String, _ handler: @escaping RPCEncodedHandler) {
        add(method, .encoded(handler))
    }

    /// A method that may answer later (`RPCDeferrableHandler`).
    public func registerDeferrable(_ method: String, _ handler: @escaping RPCDeferrableHandler) {
        add(method, .deferrable(handler))
    }

    private func add(_ method: String, _ handler: Handler) {
        if handlers[method] == nil { methodNames.append(method) }
        handlers[method] = handler
    }

    /// Handles one frame (a message or a batch), writing every resulting message to `sink`.
    public func handle(frame: [UInt8], sink: MessageSink) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(frame, maxDepth: limits.maxDepth)
        } catch {
            let reply: JSONRPCError
            switch error.kind {
            case .tooDeep:
                reply = .invalidRequest(
                    "JSON nesting deeper than \(limits.maxDepth) levels",
                    data: ["limit": .int(Int64(limits.maxDepth))])
            case .invalidUTF8:
                reply = .parseError("invalid UTF-8 at byte \(error.offset)")
            case .syntax:
                reply = .parseError("\(error.message) at byte \(error.offset)")
            }
            sink.send(message: JSONRPCOutgoing.error(id: nil, reply))
            return
        }
        if case .array(let elements) = value {
            handleBatch(elements, sink: sink)
        } else if let reply = dispatch(value) {
            switch reply {
            case .message(let message): sink.send(message: message)
            case .encoded(let id, let result): sink.send(response: id, encoded: result)
            }
        }
    }

    private func handleBatch(_ elements: [JSONValue], sink: MessageSink) {
        guard !elements.isEmpty else {
            sink.send(message: JSONRPCOutgoing.error(id: nil, .invalidRequest("empty batch")))
            return
        }
        guard elements.count <= limits.maxBatchLength else {
            sink.send(
                message: JSONRPCOutgoing.error(
                    id: nil,
                    .invalidRequest(
                        "batch of \(elements.count) exceeds the limit of \(limits.maxBatchLength)",
                        data: ["limit": .int(Int64(limits.maxBatchLength))])))
            return
        }
        var replies: [JSONValue] = []
        for element in elements {
            if stopRequested { break }
            if let reply = dispatch(element) { replies.append(reply.message) }
        }
        if !replies.isEmpty { sink.send(message: .array(replies)) }
    }

    /// Validates and runs one message; returns its response, or nil for a notification.
    private func dispatch(_ value: JSONValue) -> Reply? {
        let message: JSONRPCMessage
        switch JSONRPCMessage.validate(value) {
        case .failure(let failure):
            return .message(JSONRPCOutgoing.error(id: failure.id, failure.error))
        case .success(let valid):
            message = valid
        }
        guard let handler = handlers[message.method] else {
            if message.isNotification {
                logDebug("unknown notification ignored: \(message.method)")
                return nil
            }
            return .message(
                JSONRPCOutgoing.error(
                    id: message.id, .methodNotFound(message.method, data: unknownMethodData?(message.method))))
        }
        let call = RPCCall(id: message.id, method: message.method, params: message.params)
        do {
            switch handler {
            case .value(let handler):
                let result = try handler(call)
                return message.isNotification ? nil : .message(JSONRPCOutgoing.response(id: message.id, result: result))
            case .encoded(let handler):
                let result = try handler(call)
                return message.isNotification ? nil : .encoded(message.id, result)
            case .deferrable(let handler):
                guard let result = try handler(call) else { return nil }
                return message.isNotification ? nil : .message(JSONRPCOutgoing.response(id: message.id, result: result))
            }
        } catch {
            if message.isNotification {
                logInfo("notification \(message.method) failed: \(error.message)")
                return nil
            }
            return .message(JSONRPCOutgoing.error(id: message.id, error))
        }
    }
}
