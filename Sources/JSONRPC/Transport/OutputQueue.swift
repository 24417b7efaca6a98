import AuthBridgeCore
import Dispatch
import Synchronization

/// What goes to the stdio host, in order: a face hands its bytes over with the world held and
/// never waits there, so a host that stops reading stdout never blocks the Host's other faces.
/// Whoever then waits for the bytes with the world released writes them on its own thread if
/// nobody else is writing; the rest is written by a thread of the queue's own. A producer that
/// needs its bytes out before it goes on takes a `Mark` after handing them over and waits for it
/// (`wait(until:)`) once it has let go of the world: the stdio face before it reads its next chunk
/// of input, and an HTTP unit that handed events over before it sends its response, so a host
/// reads an HTTP request's events before the response can reach anyone. A unit that handed
/// nothing over never waits. While it answers one chunk of input the stdio face also waits
/// between frames while more than `bound` bytes are queued (`waitForRoom`), so a chunk's answers
/// never pile up in memory past it.
public final class OutputQueue: Sendable {
    /// Bytes queued past which the stdio face handles the next frame of a chunk only once the
    /// host has read some (`--max-queued-output`).
    public static let defaultBound = 1 << 20

    public let bound: Int

    /// A point in the output: every byte handed over before it was taken.
    public struct Mark: Sendable, Comparable {
        fileprivate let offset: Int
        public static func < (lhs: Mark, rhs: Mark) -> Bool { lhs.offset < rhs.offset }
    }

    private struct Waiter {
        enum Until {
            /// At most this many bytes queued.
            case atMost(Int)
            /// Every byte handed over before the mark written.
            case written(Mark)
        }
        let until: Until
        let wake: DispatchSemaphore
    }

    private struct State {
        var chunks: [[UInt8]] = []
        /// Bytes handed over since the start.
        var handed = 0
        /// Bytes written since the start; `handed - written` are queued (those being written included).
        var written = 0
        /// A write failed (EPIPE: the host closed our stdout): what is queued and what comes
        /// later is dropped, as nobody is left to read it.
        var closed = false
        /// No more output will come: the thread ends once the queue is written.
        var finished = false
        /// No thread could be started: `enqueue` writes at once, as the writer always did.
        var inline = false
        /// A thread is writing taken chunks: the others leave the rest to it, so bytes keep their order.
        var writing = false
        var waiters: [Waiter] = []

        var queued: Int { handed - written }

        func met(_ until: Waiter.Until) -> Bool {
            if closed { return true }
            switch until {
            case .atMost(let limit): return queued <= limit
            case .written(let mark): return written >= mark.offset
            }
        }
    }

    private let fd: Int32
    private let state = Mutex(State())
    private let work = DispatchSemaphore(value: 0)

    public init(fd: Int32, bound: Int = defaultBound) {
        self.fd = fd
        self.bound = bound
        let started = Threads.detach { [self] in writeLoop() }
        if !started {
            logWarn("no thread for the stdout writer: output is written as it is queued")
            state.withLock { $0.inline = true }
        }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Whether bytes are queued that are not written yet.
    public var isPending: Bool { state.withLock { !$0.closed && $0.queued > 0 } }

    /// Hands bytes over; never blocks on the host. `wakeWriter` false: the caller will wait for
    /// them (`wait(until:)`) and write them itself.
    public func enqueue(_ bytes: [UInt8], wakeWriter: Bool = true) {
        guard !bytes.isEmpty else { return }
        let (accepted, inline) = state.withLock { state in
            guard !state.closed else { return (false, false) }
            state.handed += bytes.count
            if !state.inline { state.chunks.append(bytes) }
            return (true, state.inline)
        }
        guard accepted else { return }
        if inline {
            write(bytes)
        } else if wakeWriter {
            work.signal()
        }
    }

    /// Where the output stands: every byte handed over so far is before it.
    public var mark: Mark { state.withLock { Mark(offset: $0.handed) } }

    /// Blocks until every byte handed over before `mark` is written, or the output is closed.
    /// Call it with the world released.
    public func wait(until mark: Mark) { wait(.written(mark)) }

    /// Blocks while more than `bound` bytes are queued, or until the output is closed. Call it
    /// with the world released.
    public func waitForRoom() { wait(.atMost(bound)) }

    private func wait(_ until: Waiter.Until) {
        let wake = DispatchSemaphore(value: 0)
        while true {
            enum Next { case ready, write([[UInt8]]), sleep }
            let next: Next = state.withLock { state in
                if state.met(until) { return .ready }
                if !state.writing, !state.chunks.isEmpty { return .write(Self.take(&state)) }
                state.waiters.append(Waiter(until: until, wake: wake))
                return .sleep
            }
            switch next {
            case .ready: return
            case .write(let chunks): written(chunks)
            case .sleep:
                wake.wait()
                return
            }
        }
    }

    /// The queued chunks, for the caller to write; it is the writer until `written`.
    private static func take(_ state: inout State) -> [[UInt8]] {
        state.writing = true
        defer { state.chunks.removeAll() }
        return state.chunks
    }

    /// Writes chunks taken with `take`, then lets another writer go on.
    private func written(_ chunks: [[UInt8]]) {
        for chunk in chunks { write(chunk) }
        // The writer thread may have found this one writing when it was told to finish, or when
        // more was handed over; a waiting face stops once its own bytes are out and leaves the
        // rest to the thread.
        let more = state.withLock { state in
            state.writing = false
            return state.finished || !state.chunks.isEmpty
        }
        if more { work.signal() }
    }

    /// No more output: the thread writes what is queued and ends.
    public func finish() {
        state.withLock { $0.finished = true }
        work.signal()
    }

    private func writeLoop() {
        while true {
            work.wait()
            // Everything queued, including what arrives while it writes; a thread that took
            // chunks first (a waiting face) writes those, and this one finds them gone.
            while true {
                let (chunks, done): ([[UInt8]]?, Bool) = state.withLock { state in
                    guard !state.writing else { return (nil, false) }
                    guard !state.chunks.isEmpty else { return (nil, state.finished) }
                    return (Self.take(&state), false)
                }
                if done { return }
                guard let chunks else { break }
                written(chunks)
            }
        }
    }

    private func write(_ chunk: [UInt8]) {
        guard !isClosed else { return }
        let failed = chunk.withUnsafeBytes { FDIO.writeAll(fd, $0) } != nil
        let wake: [DispatchSemaphore] = state.withLock { state in
            guard !state.closed else { return [] }
            state.written += chunk.count
            if failed {
                state.closed = true
                state.chunks.removeAll()
            }
            let snapshot = state
            let ready = state.waiters.filter { snapshot.met($0.until) }
            state.waiters.removeAll { snapshot.met($0.until) }
            return ready.map(\.wake)
        }
        for semaphore in wake { semaphore.signal() }
    }
}
