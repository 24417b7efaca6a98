import AuthBridgeCore
import Synchronization

/// The last requests and events across the faces, for the inspector's timeline: each stdio
/// method (a Ping module's included), each HTTP request, each event sent to JS, with how long it
/// took. It is kept only when the inspector can be open (`HostConfiguration.recordsTimeline`: an
/// HTTP face on loopback); values come in already redacted, as the trace writes them. It is not
/// the world's state (nothing saved, nothing rolled back): faces record into it outside their
/// units, under its own lock, and a listener (an open page) hears each entry as it is recorded.
public final class Timeline: Sendable {
    public struct Entry: Equatable, Sendable {
        /// Increasing from 1: the page keeps its place with it.
        public var sequence: Int64
        /// `stdio`, `ping` (a Ping module's method), `http`, `event`.
        public var face: String
        /// The method, `GET /path`, or the event's name.
        public var name: String
        /// Wall-clock seconds when it began (the trace's time, whatever `--clock` says).
        public var at: Double
        public var milliseconds: Double?
        public var request: JSONValue?
        public var response: JSONValue?
        public var failed: Bool

        public var json: JSONValue {
            var json: JSONObject = [
                "sequence": .int(sequence), "face": .string(face), "name": .string(name),
                "at": .string(ISO8601.formatMillis(at)), "failed": .bool(failed),
            ]
            if let milliseconds { json["ms"] = .double((milliseconds * 100).rounded() / 100) }
            if let request { json["request"] = request }
            if let response { json["response"] = response }
            return .object(json)
        }
    }

    /// Told of each entry; returns false to be forgotten (its page has gone).
    public typealias Listener = @Sendable (Entry) -> Bool

    public static let capacity = 500

    /// A ring: once full, `oldest` is where the next entry overwrites the oldest one.
    private let state = Mutex(
        (entries: [Entry](), oldest: 0, next: Int64(1), listeners: [(id: Int, hear: Listener)](), ids: 0))

    public init() {}

    /// The wall-clock time now, for a face to stamp when a request began.
    public var now: Double { SystemClock().now }

    public func record(
        face: String, name: String, at: Double, milliseconds: Double? = nil, request: JSONValue? = nil,
        response: JSONValue? = nil, failed: Bool = false
    ) {
        let (entry, listeners) = state.withLock { state in
            let entry = Entry(
                sequence: state.next, face: face, name: name, at: at, milliseconds: milliseconds, request: request,
                response: response, failed: failed)
            state.next += 1
            if state.entries.count < Self.capacity {
                state.entries.append(entry)
            } else {
                state.entries[state.oldest] = entry
                state.oldest = (state.oldest + 1) % Self.capacity
            }
            return (entry, state.listeners)
        }
        guard !listeners.isEmpty else { return }
        let gone = Set(listeners.filter { !$0.hear(entry) }.map(\.id))
        guard !gone.isEmpty else { return }
        state.withLock { $0.listeners.removeAll { gone.contains($0.id) } }
    }

    /// The entries kept now, oldest first, and from then on every new one told to `listener`.
    public func listen(_ listener: @escaping Listener) -> [Entry] {
        state.withLock { state in
            state.ids += 1
            state.listeners.append((state.ids, listener))
            return Self.inOrder(state.entries, oldest: state.oldest)
        }
    }

    public var entries: [Entry] { state.withLock { Self.inOrder($0.entries, oldest: $0.oldest) } }

    private static func inOrder(_ entries: [Entry], oldest: Int) -> [Entry] {
        Array(entries[oldest...] + entries[..<oldest])
    }

    public var listenerCount: Int { state.withLock { $0.listeners.count } }
}
