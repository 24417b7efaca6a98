import AuthBridgeCore
import HTTPServer
import Synchronization
import Testing

/// A streamed response (`Delivery.stream`, what server-sent events use): the head at once, no
/// length, then each chunk as it is sent, until the stream or the client ends it.
@Suite(.serialized) struct StreamTests {
    /// The stream the last `/events` request was answered with.
    final class Opened: Sendable {
        let stream = Mutex<HTTPStream?>(nil)

        /// Waits (bounded) until a request has opened the stream.
        func wait() -> HTTPStream? {
            for _ in 0..<1000 {
                if let stream = stream.withLock({ $0 }) { return stream }
                ProcessControl.sleep(seconds: 0.005)
            }
            return nil
        }
    }

    static func start(_ opened: Opened, keepAlive: Double = 15) throws -> HTTPServer {
        var configuration = HTTPServer.Configuration()
        configuration.streamKeepAliveSeconds = keepAlive
        let server = try HTTPServer(configuration: configuration)
        server.start { [opened] request in
            guard request.path == "/events" else { return HTTPResponse(status: 200, text: "\(request.path) ok") }
            let stream = HTTPStream()
            stream.send(Array("data: first\n\n".utf8))
            opened.stream.withLock { $0 = stream }
            var response = HTTPResponse(status: 200, headers: [.init("Content-Type", "text/event-stream")])
            response.delivery = .stream(stream)
            return response
        }
        return server
    }

    @Test func theHeadHasNoLengthAndChunksFollowAsTheyAreSent() throws {
        let opened = Opened()
        let server = try Self.start(opened)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
        let stream = try #require(opened.wait())
        #expect(stream.send(Array("data: second\n\n".utf8)))
        stream.close()
        let text = client.readToEnd()
        #expect(text.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nConnection: close\r\n\r\n"))
        #expect(!text.contains("Content-Length"))
        #expect(text.hasSuffix("\r\n\r\ndata: first\n\ndata: second\n\n"))
        #expect(!stream.send([1]), "a closed stream takes nothing more")
    }

    @Test func aQuietStreamWritesACommentAndNoticesTheClientLeft() throws {
        let opened = Opened()
        let server = try Self.start(opened, keepAlive: 0.05)
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
        let stream = try #require(opened.wait())
        client.close()
        // The comment lines written after the client left fail, and the connection closes the stream.
        for _ in 0..<1000 where !stream.isClosed { ProcessControl.sleep(seconds: 0.005) }
        #expect(stream.isClosed)
        #expect(!stream.send(Array("data: late\n\n".utf8)))
    }

    @Test func aClientThatDoesNotReadIsDroppedPastTheBound() {
        let stream = HTTPStream()
        for _ in 0..<HTTPStream.maxQueued { #expect(stream.send([0])) }
        #expect(!stream.send([0]))
        #expect(stream.isClosed)
    }

    @Test func otherConnectionsAreServedWhileAStreamIsOpen() throws {
        let opened = Opened()
        let server = try Self.start(opened)
        defer { server.stop() }
        let watcher = try RawClient(port: server.port)
        defer { watcher.close() }
        watcher.send("GET /events HTTP/1.1\r\nHost: h\r\n\r\n")
        let stream = try #require(opened.wait())
        defer { stream.close() }
        let other = try RawClient(port: server.port)
        defer { other.close() }
        other.send("GET /a HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(other.readToEnd().contains("/a ok"))
    }
}
