import AuthBridgeCore
import Dispatch
import HTTPServer
import Host
import Synchronization

/// `GET /inspector/events`: the snapshot and the timeline as server-sent events, coalesced so an
/// open page costs the faces nothing they would notice. A `state` event comes at once, then at
/// most one per `period`, only after a unit of work ended and only when what the page shows
/// changed; a `timeline` event carries the entries kept (an array) at once, then those recorded
/// since, at most one batch of at most `batch` per `period`. The feed is a watcher of the world's units
/// (`UnitWatchers`) that only marks the snapshot stale; the snapshot is built later, on the
/// feed's own queue, in one unit of its own, off every request's path. With no page open there
/// is no feed, and a unit does nothing for the inspector.
final class InspectorFeed: Sendable {
    /// How often, at most, a page is sent what changed: well within the second a person waits.
    static let period = 0.15
    /// The most entries one `timeline` event carries: the newest. Under a flood (a benchmark, a
    /// loop) the page skips the rest, as a person would, and `/inspector/timeline` still has them;
    /// what the page costs stays bounded whatever the rate.
    static let batch = 100

    private let stream: HTTPStream
    private let host: Host
    private let queue = DispatchQueue(label: "authbridge.inspector.feed")
    /// A unit ended since the snapshot was last built.
    private let stale = Atomic<Bool>(false)
    private let sent = Mutex((snapshot: [UInt8](), sequence: Int64(0), opened: false))

    private init(stream: HTTPStream, host: Host) {
        self.stream = stream
        self.host = host
    }

    /// Opened in the request's own unit: the first snapshot is built there; the timeline's kept
    /// entries follow from the feed's queue.
    static func open(_ world: World, host: Host, headers: [HTTPRequest.Header]) -> HTTPResponse {
        let feed = InspectorFeed(stream: HTTPStream(), host: host)
        let snapshot = JSONWriter().bytes(InspectorSnapshot.json(world))
        feed.sent.withLock { $0.snapshot = snapshot }
        feed.stream.send(frame(event: "state", data: snapshot))
        world.unitWatchers.add(feed.unitEnded)
        feed.queue.async { feed.tick() }
        var response = HTTPResponse(
            status: 200, headers: [.init("Content-Type", "text/event-stream; charset=utf-8")] + headers)
        response.delivery = .stream(feed.stream)
        return response
    }

    /// The watcher: marks the snapshot stale (one store); false once the page has gone.
    private func unitEnded(_ world: World) -> Bool {
        stale.store(true, ordering: .relaxed)
        return !stream.isClosed
    }

    /// What changed since the last tick, sent; then the next tick, until the page goes.
    private func tick() {
        guard !stream.isClosed else { return }
        if stale.exchange(false, ordering: .relaxed) {
            let built = host.perform { world in
                world.unitWatchers.keepThisUnitQuiet()
                return JSONWriter().bytes(InspectorSnapshot.json(world))
            }
            if case .success(let snapshot) = built, sent.withLock({ $0.snapshot }) != snapshot {
                sent.withLock { $0.snapshot = snapshot }
                stream.send(Self.frame(event: "state", data: snapshot))
            }
        }
        if let timeline = host.timeline {
            // The first batch is every entry kept: the history a page opened later shows.
            let (after, first) = sent.withLock { ($0.sequence, !$0.opened) }
            let unseen = timeline.entries(after: after)
            let entries = first ? unseen[...] : unseen.suffix(Self.batch)
            sent.withLock { $0.opened = true }
            if let last = entries.last {
                sent.withLock { $0.sequence = last.sequence }
                stream.send(Self.frame(event: "timeline", data: entries.map(\.json)))
            }
        }
        queue.asyncAfter(deadline: .now() + .milliseconds(Int(Self.period * 1000))) { self.tick() }
    }

    /// One event as `text/event-stream` frames it (WHATWG HTML §9.2): the writer's JSON has no
    /// line breaks, so it is one `data:` line.
    static func frame(event: String, data: [UInt8]) -> [UInt8] {
        Array("event: \(event)\ndata: ".utf8) + data + Array("\n\n".utf8)
    }

    static func frame(event: String, data entries: [JSONValue]) -> [UInt8] {
        frame(event: event, data: JSONWriter().bytes(.array(entries)))
    }
}
