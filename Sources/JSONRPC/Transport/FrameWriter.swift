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

/// The one serial writer: bodies are framed into a buffer, and `flush` hands the buffer to an
/// `OutputQueue`, whose thread writes it with `FDIO.writeAll`. Buffering lets a pipelined burst
/// go out in few syscalls; the queue lets whoever flushes (with the world held) go on at once,
/// however slowly the host reads.
public final class FrameWriter: MessageSink {
    /// After EPIPE (the host closed our stdout) output is dropped: there is nobody left to read it.
    public var isClosed: Bool { queue.isClosed }
    /// Set while a chunk of input is being answered (`StdioConnection`); true too while what
    /// was flushed is not all written yet.
    public var isAnswering: Bool {
        get { answering || queue.isPending }
        set { answering = newValue }
    }
    public var framing: Framing {
        didSet { framer = framing.makeFramer(maxFrameBytes: Int.max) }
    }

    private let queue: OutputQueue
    private var answering = false
    private var framer: any Framer
    private var pending: [UInt8] = []
    private static let flushThreshold = 256 * 1024

    /// `bound`: bytes queued past which `waitForRoom` waits (`OutputQueue.defaultBound`).
    public init(fd: Int32, framing: Framing = .ndjson, bound: Int = OutputQueue.defaultBound) {
        queue = OutputQueue(fd: fd, bound: bound)
        self.framing = framing
        self.framer = framing.makeFramer(maxFrameBytes: Int.max)
        pending.reserveCapacity(64 * 1024)
    }

    deinit { queue.finish() }

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

    /// Hands everything buffered over; never waits for the host. `wakeWriter` false: the caller
    /// waits for it next (`waitUntilWritten`) and writes it on its own thread. Returns where the
    /// output stands once it is handed over.
    @discardableResult
    public func flush(wakeWriter: Bool = true) -> OutputQueue.Mark {
        if !pending.isEmpty {
            // The queue gets a copy the size of what is buffered, and the buffer keeps its
            // capacity: a fresh 64 KiB buffer for every flush cost more than a round trip's own work.
            queue.enqueue(Array(pending), wakeWriter: wakeWriter)
            pending.removeAll(keepingCapacity: true)
        }
        return queue.mark
    }

    /// Blocks until everything flushed before `mark` is written (or the output closed); without
    /// a mark, everything flushed so far. Call it with the world released.
    public func waitUntilWritten(_ mark: OutputQueue.Mark? = nil) { queue.wait(until: mark ?? queue.mark) }

    /// Blocks while more than the queue's bound is queued (a host not reading). Call it with the
    /// world released.
    public func waitForRoom() { queue.waitForRoom() }

    /// A wait, for another thread to call with the world released, until everything flushed so
    /// far is written: taken right after a flush, it waits for exactly those bytes, not for what
    /// others hand over later.
    public var writtenWait: @Sendable () -> Void {
        { [queue, mark = queue.mark] in queue.wait(until: mark) }
    }
}
