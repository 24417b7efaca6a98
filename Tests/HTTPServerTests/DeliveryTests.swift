import AuthBridgeCore
import HTTPServer
import Synchronization
import Testing

/// A response's `delivery` (what a fault asks of the connection): late, dropped, or silence, each
/// carried out on the connection's own thread; the other connections go on meanwhile.
@Suite(.serialized) struct Delivery {
    /// How many requests the handler has returned for.
    final class Handled: Sendable {
        let count = Mutex(0)
    }

    /// `/late` answers after 2 s, `/drop` never, `/silent` nothing for 2 s; the rest at once.
    static func start(handled: Handled? = nil) throws -> HTTPServer {
        let server = try HTTPServer(configuration: .init())
        server.start { [handled] request in
            var response = HTTPResponse(status: 200, text: "\(request.path) ok")
            switch request.path {
            case "/late": response.delivery = .after(seconds: 2)
            case "/drop": response.delivery = .drop
            case "/silent": response.delivery = .silence(seconds: 2)
            default: break
            }
            handled?.count.withLock { $0 += 1 }
            return response
        }
        return server
    }

    @Test func aLateResponseComesAfterAnotherSentLater() throws {
        let handled = Handled()
        let server = try Self.start(handled: handled)
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        defer { slow.close() }
        slow.send("GET /late HTTP/1.1\r\nHost: h\r\n\r\n")
        // The late request is handled (its answer waits on its connection) before the other is sent.
        for _ in 0..<500 where handled.count.withLock({ $0 }) == 0 { ProcessControl.sleep(seconds: 0.005) }
        let quick = try RawClient(port: server.port)
        defer { quick.close() }
        quick.send("GET /now HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(quick.read(responses: 1).contains("/now ok"))
        #expect(slow.staysQuiet(seconds: 0.05), "the late answer has not come yet")
        #expect(slow.read(responses: 1).contains("/late ok"))
    }

    @Test func pipelinedAnswersBeforeALateOneLeaveFirst() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /late HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        let text = client.read(responses: 3)
        #expect(text.offsets(of: "/a ok").first! < text.offsets(of: "/late ok").first!)
        #expect(text.offsets(of: "/late ok").first! < text.offsets(of: "/b ok").first!)
    }

    @Test func aDroppedResponseClosesTheConnectionWithNoAnswerAfterEarlierOnes() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /drop HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n")
        let text = client.readToEnd()
        #expect(text.contains("/a ok"))
        #expect(!text.contains("/drop") && !text.contains("/b ok"))
        let next = try RawClient(port: server.port)
        defer { next.close() }
        next.send("GET /c HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(next.readToEnd().contains("/c ok"))
    }

    @Test func silenceSendsNothingThenCloses() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /silent HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(client.staysQuiet(seconds: 0.05))
        #expect(client.readToEnd() == "", "closed without an answer")
    }

    @Test func aClientThatGivesUpEndsTheSilenceForItsConnection() throws {
        let server = try Self.start()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        client.send("GET /silent HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(client.staysQuiet(seconds: 0.05))
        client.close()
        #expect(waitUntilNoConnections(server))
    }
}
