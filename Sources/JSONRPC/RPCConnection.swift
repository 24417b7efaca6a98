import AuthBridgeCore

/// One RPC server on one stdio connection: frames go to the server; what the framer could not
/// make a frame of is answered here as JSON-RPC errors (id null), so the transport never sees
/// JSON and the server never sees framing.
public final class RPCConnection {
    public let stdio: StdioConnection
    public let server: RPCServer

    public init(stdio: StdioConnection, server: RPCServer) {
        self.stdio = stdio
        self.server = server
    }

    /// Serves frames until input ends, `daemon.shutdown`, or output closes. Replies go to `sink`
    /// (by default the connection's writer; a face may put itself in between) and every write
    /// through `output` (`StdioConnection.Output`).
    public func run(output: StdioConnection.Output? = nil, sink: MessageSink? = nil) -> StdioConnection.End {
        let sink = sink ?? stdio.writer
        return stdio.run(output: output) { event in
            Self.handle(event, server: server, sink: sink)
            return !server.stopRequested
        }
    }

    /// One framing event: a frame is served, a framing problem answered or logged.
    public static func handle(_ event: FrameEvent, server: RPCServer, sink: MessageSink) {
        switch event {
        case .frame(let bytes):
            server.handle(frame: bytes, sink: sink)
        case .oversized(let limit):
            logWarn("frame over \(limit) bytes discarded")
            sink.send(
                message: JSONRPCOutgoing.error(
                    id: nil,
                    .invalidRequest(
                        "frame exceeds the \(limit)-byte limit", data: ["limit": .int(Int64(limit))])))
        case .malformed(let reason):
            logWarn("malformed framing: \(reason)")
            sink.send(message: JSONRPCOutgoing.error(id: nil, .invalidRequest("malformed frame header: \(reason)")))
        case .truncated(let count):
            logWarn("input ended inside a frame; \(count) bytes dropped")
        }
    }
}
