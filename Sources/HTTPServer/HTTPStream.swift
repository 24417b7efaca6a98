import Dispatch
import Synchronization

/// A response body that goes on after the head, chunk by chunk, until either side ends it: what
/// server-sent events (`text/event-stream`) need. A handler answers with `delivery: .stream(s)`
/// and keeps `s`; whoever has news calls `send`; the connection's thread writes what was sent,
/// a comment line when nothing came for a while (which is how it notices a client that left),
/// and closes the connection when the client goes or `close` is called. The body is delimited by
/// the connection's close (RFC 9112 §6.3), so no chunked encoding is needed.
public final class HTTPStream: Sendable {
    /// Chunks not yet written past this many: the client does not read; the stream is closed.
    public static let maxQueued = 256

    private let state = Mutex((chunks: [[UInt8]](), closed: false))
    private let arrived = DispatchSemaphore(value: 0)

    public init() {}

    /// Queues bytes for the client; false once the stream is closed (the client left, or did not
    /// keep up): its sender should forget it.
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            guard state.chunks.count < Self.maxQueued else {
                state.closed = true
                return false
            }
            state.chunks.append(bytes)
            return true
        }
        arrived.signal()
        return queued
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends the stream: what was queued is still written, then the connection closes.
    public func close() {
        state.withLock { $0.closed = true }
        arrived.signal()
    }

    /// What was sent since the last call, waiting up to `seconds` for something (empty when
    /// nothing came); nil once the stream is closed and drained.
    public func take(waiting seconds: Double) -> [[UInt8]]? {
        let deadline = DispatchTime.now() + .milliseconds(Int(seconds * 1000))
        while true {
            // A signal may be left over from chunks an earlier call already took: look again.
            let taken = state.withLock { state -> [[UInt8]]?? in
                if state.chunks.isEmpty { return state.closed ? .some(nil) : nil }
                defer { state.chunks.removeAll() }
                return .some(state.chunks)
            }
            if let taken { return taken }
            if arrived.wait(timeout: deadline) == .timedOut { return state.withLock { $0.closed ? nil : [] } }
        }
    }
}

extension HTTPStream: Equatable {
    public static func == (lhs: HTTPStream, rhs: HTTPStream) -> Bool { lhs === rhs }
}
