import AuthBridgeCore
import EmbeddedAM
import Synchronization

/// The last requests and events across the faces, for the inspector's timeline: each stdio
/// method (a Ping module's included), each HTTP request, each event sent to JS, each journey that
/// failed, with how long it took. It is kept only when the inspector can be open
/// (`HostConfiguration.recordsTimeline`: an HTTP face on loopback). It is not the world's state
/// (nothing saved, nothing rolled back): faces record into it outside their units, under its own
/// lock, and an open page reads what came since it last looked (`entries(after:)`).
///
/// Recording must cost nothing measurable (docs/inspector.md, "What it costs"): a recorder keeps
/// the values as they came (a request, an outcome: references, not copies) and says how they are
/// shown (`Detail`); the redaction, the JSON and the dates are made only when an entry is read.
public final class Timeline: Sendable {
    public enum Face: String, Sendable {
        /// A stdio method; `ping` is a Ping module's method, `event` an event sent to JS, `journey`
        /// a journey that failed.
        case stdio, ping, http, event, journey
    }

    /// What an entry shows, redacted as the trace redacts it: made when it is read, from the raw
    /// values the recorder kept.
    public struct Shown: Sendable {
        /// The method, `GET /path`, or the event's name.
        public var name: String
        public var request: JSONValue?
        public var response: JSONValue?

        public init(name: String, request: JSONValue? = nil, response: JSONValue? = nil) {
            self.name = name
            self.request = request
            self.response = response
        }
    }

    public typealias Detail = @Sendable () -> Shown
    /// The user and journey an entry concerns (the server's `UnitConcern`).
    public typealias Concern = UnitConcern

    public struct Entry: Sendable {
        /// Increasing from 1: the page keeps its place with it.
        public var sequence: Int64
        public var face: Face
        /// Wall-clock seconds when it began (the trace's time, whatever `--clock` says).
        public var at: Double
        public var seconds: Double?
        public var failed: Bool
        /// The user and journey it concerns, as the unit of work learned them (`UnitConcern`).
        public var concern: UnitConcern?
        public var detail: Detail

        public var shown: Shown { detail() }

        /// The entry as the page reads it: here, not when it was recorded, the redaction runs and
        /// the JSON is built; a request or response past `Timeline.shownBytes` is cut and says so.
        public var json: JSONValue {
            let shown = detail()
            var json: JSONObject = [
                "sequence": .int(sequence), "face": .string(face.rawValue), "name": .string(shown.name),
                "at": .string(ISO8601.formatMillis(at)), "failed": .bool(failed),
            ]
            if let seconds { json["ms"] = .double((seconds * 100_000).rounded() / 100) }
            if let user = concern?.user { json["user"] = .string(user) }
            if let journey = concern?.journey { json["journey"] = .string(journey) }
            if let request = shown.request { json["request"] = Timeline.bounded(request) }
            if let response = shown.response { json["response"] = Timeline.bounded(response) }
            return .object(json)
        }
    }

    public static let capacity = 500
    /// How much of one request or response an entry shows (its compact JSON); past this, the
    /// start and the size.
    public static let shownBytes = 8 * 1024

    private struct Ring {
        var entries: [Entry] = []
        /// Once full, where the next entry overwrites the oldest one.
        var oldest = 0
        var next: Int64 = 1
    }

    private let ring = Mutex(Ring())

    public init() {}

    /// The wall-clock time now, for a face to stamp when a request began.
    public var now: Double { SystemClock().now }

    /// Keeps one entry: one short lock, no formatting (`detail` runs only when it is read).
    public func record(
        _ face: Face, at: Double, seconds: Double? = nil, failed: Bool = false, concern: UnitConcern? = nil,
        _ detail: @escaping Detail
    ) {
        // The entry it replaces is released after the lock, with what it kept.
        let replaced: Entry? = ring.withLock { ring in
            let entry = Entry(
                sequence: ring.next, face: face, at: at, seconds: seconds, failed: failed, concern: concern,
                detail: detail)
            ring.next += 1
            guard ring.entries.count == Self.capacity else {
                if ring.entries.isEmpty { ring.entries.reserveCapacity(Self.capacity) }
                ring.entries.append(entry)
                return nil
            }
            let old = ring.entries[ring.oldest]
            ring.entries[ring.oldest] = entry
            ring.oldest = (ring.oldest + 1) % Self.capacity
            return old
        }
        withExtendedLifetime(replaced) {}
    }

    /// The entries kept now, oldest first.
    public var entries: [Entry] { entries(after: 0) }

    /// The entries kept whose sequence is past `sequence`, oldest first: what a page has not seen.
    public func entries(after sequence: Int64) -> [Entry] {
        ring.withLock { ring in
            let count = ring.entries.count
            let unseen = Int(min(Int64(count), max(0, ring.next - 1 - sequence)))
            guard unseen > 0 else { return [] }
            let start = (ring.oldest + count - unseen) % count
            if start + unseen <= count { return Array(ring.entries[start..<(start + unseen)]) }
            return Array(ring.entries[start...] + ring.entries[..<(start + unseen - count)])
        }
    }

    /// The sequence of the last entry recorded (0 before any).
    public var lastSequence: Int64 { ring.withLock { $0.next - 1 } }

    /// A value as an entry shows it: whole, or, past `shownBytes` of compact JSON, its start and size.
    static func bounded(_ value: JSONValue) -> JSONValue {
        let bytes = JSONWriter().bytes(value)
        guard bytes.count > shownBytes else { return value }
        return [
            "truncated": true, "bytes": .int(Int64(bytes.count)),
            "start": .string(String(decoding: bytes.prefix(shownBytes), as: UTF8.self)),
        ]
    }
}
