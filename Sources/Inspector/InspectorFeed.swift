import AuthBridgeCore
import HTTPServer
import Host

/// `GET /inspector/events`: the snapshot as server-sent events, one `state` event at once and
/// one after each unit of work that changed what the page shows. The feed is a watcher of the
/// world's units (`UnitWatchers`): with no page open there is none, and a unit does nothing for
/// the inspector; with one open, each unit builds the snapshot once per watcher and sends it only
/// when it differs from the last one sent. With the timeline kept, a `timeline` event carries
/// its entries (an array), the kept ones first, then each new one as it is recorded.
final class InspectorFeed {
    private let stream: HTTPStream
    private var lastSent: [UInt8] = []

    private init(stream: HTTPStream) { self.stream = stream }

    static func open(_ world: World, headers: [HTTPRequest.Header]) -> HTTPResponse {
        let feed = InspectorFeed(stream: HTTPStream())
        _ = feed.unitEnded(world)
        world.unitWatchers.add(feed.unitEnded)
        // The timeline's entries come as they are recorded, outside any unit (a stdio call is
        // recorded once answered): the kept ones at once, then each new one.
        if let timeline = world.timeline {
            let stream = feed.stream
            let kept = timeline.listen { entry in stream.send(frame(event: "timeline", data: [entry.json])) }
            stream.send(frame(event: "timeline", data: kept.map(\.json)))
        }
        var response = HTTPResponse(
            status: 200, headers: [.init("Content-Type", "text/event-stream; charset=utf-8")] + headers)
        response.delivery = .stream(feed.stream)
        return response
    }

    /// False once the page has gone: the watcher is then forgotten.
    private func unitEnded(_ world: World) -> Bool {
        guard !stream.isClosed else { return false }
        let snapshot = JSONWriter().bytes(InspectorSnapshot.json(world))
        guard snapshot != lastSent else { return true }
        lastSent = snapshot
        return stream.send(Self.frame(event: "state", data: snapshot))
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
