import AuthBridgeCore

/// Where encoded messages go. The RPC layer writes bodies; the transport frames them.
public protocol MessageSink: AnyObject {
    func send(_ body: [UInt8])
    /// Encodes and sends one message; a sink may write it straight into its buffer.
    func send(message: JSONValue)
    /// Sends a response whose result was encoded before; a sink may copy it straight into its buffer.
    func send(response id: RequestID?, encoded result: EncodedResult)
}

extension MessageSink {
    public func send(message: JSONValue) { send(JSONWriter().bytes(message)) }

    public func send(response id: RequestID?, encoded result: EncodedResult) {
        var body: [UInt8] = []
        body.reserveCapacity(result.bytes.count + 64)
        JSONRPCOutgoing.write(response: id, encoded: result, into: &body)
        send(body)
    }
}

/// The one serial writer: bodies are framed into a buffer and written with `FDIO.writeAll`.
/// Buffering lets a pipelined burst go out in few syscalls.
public final class FrameWriter: MessageSink {
    public private(set) var isClosed = false
    /// Set while a chunk of input is being answered (`StdioConnection`): what it caused is not
    /// all written yet.
    public var isAnswering = false
    public var framing: Framing {
        didSet { framer = framing.makeFramer(maxFrameBytes: Int.max) }
    }

    private let fd: Int32
    private var framer: any Framer
    private var pending: [UInt8] = []
    private static let flushThreshold = 256 * 1024

    public init(fd: Int32, framing: Framing = .ndjson) {
        self.fd = fd
        self.framing = framing
        self.framer = framing.makeFramer(maxFrameBytes: Int.max)
        pending.reserveCapacity(64 * 1024)
    }

    public func send(_ body: [UInt8]) {
        framer.encode(body, into: &pending)
        if pending.count >= Self.flushThreshold { flush() }
    }

    /// NDJSON needs no length up front, so the message is encoded in place: no copy of the body.
    public func send(message: JSONValue) {
        guard framing == .ndjson else {
            send(JSONWriter().bytes(message))
            return
        }
        JSONWriter().write(message, into: &pending)
        pending.append(0x0A)
        if pending.count >= Self.flushThreshold { flush() }
    }

    public func send(response id: RequestID?, encoded result: EncodedResult) {
        guard framing == .ndjson else {
            var body: [UInt8] = []
            JSONRPCOutgoing.write(response: id, encoded: result, into: &body)
            send(body)
            return
        }
        JSONRPCOutgoing.write(response: id, encoded: result, into: &pending)
        pending.append(0x0A)
        if pending.count >= Self.flushThreshold { flush() }
    }

    /// Writes everything buffered. After EPIPE (the host closed our stdout) the writer is closed
    /// and later output is dropped: there is nobody left to read it.
    public func flush() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        guard !isClosed else { return }
        if pending.withUnsafeBytes({ FDIO.writeAll(fd, $0) }) != nil { isClosed = true }
    }
}
