import AuthBridgeCore

/// One call as a handler sees it.
public struct RPCCall {
    public let id: RequestID?
    public let method: String
    public let params: JSONValue?
    /// Sends a notification (an event) now: before the response to this call.
    public let notify: (String, JSONValue) -> Void
}

public typealias RPCHandler = (RPCCall) throws(JSONRPCError) -> JSONValue

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
    private var handlers: [String: RPCHandler] = [:]
    public private(set) var methodNames: [String] = []
    /// Set by a handler (daemon.shutdown) to end the session after its response is written.
    public var stopRequested = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    public func register(_ method: String, _ handler: @escaping RPCHandler) {
        if handlers[method] == nil { methodNames.append(method) }
        handlers[method] = handler
    }

    /// Handles one framing event, writing every resulting message to `sink`.
    public func handle(_ event: FrameEvent, sink: MessageSink) {
        switch event {
        case .frame(let bytes):
            handle(frame: bytes, sink: sink)
        case .oversized(let limit):
            logWarn("frame over \(limit) bytes discarded")
            send(JSONRPCOutgoing.error(id: nil, .invalidRequest(
                "frame exceeds the \(limit)-byte limit", data: ["limit": .int(Int64(limit))])), to: sink)
        case .malformed(let reason):
            logWarn("malformed framing: \(reason)")
            send(JSONRPCOutgoing.error(id: nil, .invalidRequest("malformed frame header: \(reason)")), to: sink)
        case .truncated(let count):
            logWarn("input ended inside a frame; \(count) bytes dropped")
        }
    }

    public func handle(frame: [UInt8], sink: MessageSink) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(frame, maxDepth: limits.maxDepth)
        } catch {
            let reply: JSONRPCError
            switch error.kind {
            case .tooDeep:
                reply = .invalidRequest("JSON nesting deeper than \(limits.maxDepth) levels",
                                        data: ["limit": .int(Int64(limits.maxDepth))])
            case .invalidUTF8:
                reply = .parseError("invalid UTF-8 at byte \(error.offset)")
            case .syntax:
                reply = .parseError("\(error.message) at byte \(error.offset)")
            }
            send(JSONRPCOutgoing.error(id: nil, reply), to: sink)
            return
        }
        if case .array(let elements) = value {
            handleBatch(elements, sink: sink)
        } else if let reply = dispatch(value, sink: sink) {
            send(reply, to: sink)
        }
    }

    private func handleBatch(_ elements: [JSONValue], sink: MessageSink) {
        guard !elements.isEmpty else {
            send(JSONRPCOutgoing.error(id: nil, .invalidRequest("empty batch")), to: sink)
            return
        }
        guard elements.count <= limits.maxBatchLength else {
            send(JSONRPCOutgoing.error(id: nil, .invalidRequest(
                "batch of \(elements.count) exceeds the limit of \(limits.maxBatchLength)",
                data: ["limit": .int(Int64(limits.maxBatchLength))])), to: sink)
            return
        }
        var replies: [JSONValue] = []
        for element in elements {
            if stopRequested { break }
            if let reply = dispatch(element, sink: sink) { replies.append(reply) }
        }
        if !replies.isEmpty { send(.array(replies), to: sink) }
    }

    /// Validates and runs one message; returns its response, or nil for a notification.
    private func dispatch(_ value: JSONValue, sink: MessageSink) -> JSONValue? {
        let message: JSONRPCMessage
        switch JSONRPCMessage.validate(value) {
        case .failure(let failure):
            return JSONRPCOutgoing.error(id: failure.id, failure.error)
        case .success(let valid):
            message = valid
        }
        guard let handler = handlers[message.method] else {
            if message.isNotification {
                logDebug("unknown notification ignored: \(message.method)")
                return nil
            }
            return JSONRPCOutgoing.error(id: message.id, .methodNotFound(message.method))
        }
        let call = RPCCall(id: message.id, method: message.method, params: message.params) { [weak self] method, params in
            self?.send(JSONRPCOutgoing.notification(method: method, params: params), to: sink)
        }
        do {
            let result = try handler(call)
            if message.isNotification { return nil }
            return JSONRPCOutgoing.response(id: message.id, result: result)
        } catch {
            if message.isNotification {
                logInfo("notification \(message.method) failed: \(error.message)")
                return nil
            }
            return JSONRPCOutgoing.error(id: message.id, error)
        }
    }

    private func send(_ message: JSONValue, to sink: MessageSink) {
        sink.send(message: message)
    }
}
