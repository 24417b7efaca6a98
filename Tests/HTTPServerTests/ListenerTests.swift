import AuthBridgeCore
import HTTPServer
import Testing

/// A raw loopback client: writes bytes, reads until it has `count` responses or the peer closes.
struct RawClient {
    let fd: Int32

    init(port: UInt16) throws {
        fd = try Sockets.connect(to: .init(host: "127.0.0.1", port: port)).get()
        Sockets.setTimeouts(fd, seconds: 5)
    }

    func send(_ text: String) { Sockets.sendAll(fd, Array(text.utf8)) }

    /// Everything until the peer closes (or 5 s pass).
    func readToEnd() -> String {
        var all: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        while case .success(let count) = Sockets.receive(fd, into: buffer), count > 0 { all += buffer[0..<count] }
        return String(decoding: all, as: UTF8.self)
    }

    /// Reads until `occurrences` status lines have arrived and the text ends like a response
    /// here does (a newline, `}`, or the echo server's `ok`), compared as bytes: "\r\n" is
    /// one Character, so `hasSuffix("\n")` would never see it.
    func read(responses occurrences: Int) -> String {
        var all: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        for _ in 0..<1000 {
            let text = String(decoding: all, as: UTF8.self)
            if text.components("HTTP/1.1 ") >= occurrences, [0x0A, 0x7D, 0x6B].contains(text.utf8.last) { return text }
            guard case .success(let count) = Sockets.receive(fd, into: buffer), count > 0 else { break }
            all += buffer[0..<count]
        }
        return String(decoding: all, as: UTF8.self)
    }

    /// Sends `text` a byte at a time, each after waiting `gap` seconds for an answer, until one
    /// comes (then returns everything until the peer closes) or the bytes run out (nil).
    func trickle(_ text: String, gap: Double) -> String? {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        for byte in text.utf8 {
            Sockets.sendAll(fd, [byte])
            Sockets.setReceiveTimeout(fd, seconds: gap)
            if case .success(let count) = Sockets.receive(fd, into: buffer), count > 0 {
                Sockets.setReceiveTimeout(fd, seconds: 5)
                return String(decoding: buffer[0..<count], as: UTF8.self) + readToEnd()
            }
        }
        return nil
    }

    /// True when nothing arrives, not even the peer's close, for `seconds`.
    func staysQuiet(seconds: Double) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 1)
        defer { buffer.deallocate() }
        Sockets.setReceiveTimeout(fd, seconds: seconds)
        defer { Sockets.setReceiveTimeout(fd, seconds: 5) }
        if case .failure(let failure) = Sockets.receive(fd, into: buffer) { return failure.isTimeout }
        return false
    }

    func close() { FDIO.close(fd) }
}

/// Waits until the server has let go of every connection (bounded), so a test may count on a free slot.
func waitUntilNoConnections(_ server: HTTPServer) -> Bool {
    for _ in 0..<250 where server.connectionCount > 0 { ProcessControl.sleep(seconds: 0.02) }
    return server.connectionCount == 0
}

extension String {
    /// Byte offsets where `needle` starts (no Foundation here).
    func offsets(of needle: String) -> [Int] {
        let haystack = Array(utf8)
        let target = Array(needle.utf8)
        guard !target.isEmpty, haystack.count >= target.count else { return [] }
        return (0...(haystack.count - target.count)).filter { haystack[$0..<$0 + target.count].elementsEqual(target) }
    }

    func components(_ separator: String) -> Int { offsets(of: separator).count }
}

/// Echoes method and path, so a test can tell which request a response answers.
func startEchoServer(_ adjust: (inout HTTPServer.Configuration) -> Void = { _ in }) throws -> HTTPServer {
    var configuration = HTTPServer.Configuration()
    adjust(&configuration)
    let server = try HTTPServer(configuration: configuration)
    server.start { request in
        HTTPResponse(status: 200, text: "\(request.method) \(request.path) \(request.body.count) ok")
    }
    return server
}

@Suite(.serialized) struct Listening {
    @Test func keepAliveAndPipelinedRequestsAnsweredInOrder() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send(
            "GET /a HTTP/1.1\r\nHost: h\r\n\r\nPOST /b HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\nHost: h\r\n\r\n"
        )
        let text = client.read(responses: 3)
        let bodies = ["GET /a 0 ok", "POST /b 3 ok", "GET /c 0 ok"]
        #expect(bodies.allSatisfy(text.contains))
        #expect(text.offsets(of: "/a").first! < text.offsets(of: "/b").first!)
        #expect(text.offsets(of: "/b").first! < text.offsets(of: "/c").first!)
        // The same connection serves a later request too.
        client.send("GET /d HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        let last = client.readToEnd()
        #expect(last.contains("GET /d 0 ok"))
        #expect(last.contains("Connection: close"))
    }

    @Test func malformedRequestIs400AndTheServerKeepsServing() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        let bad = try RawClient(port: server.port)
        bad.send("NOT HTTP AT ALL\r\n\r\nGET /x HTTP/1.1\r\nHost: h\r\n\r\n")
        let answer = bad.readToEnd()
        bad.close()
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(answer.contains("Connection: close"))
        #expect(!answer.contains("GET /x"))
        let good = try RawClient(port: server.port)
        defer { good.close() }
        good.send("GET /y HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(good.readToEnd().contains("GET /y 0 ok"))
    }

    @Test func connectionsPastTheBoundAre503() throws {
        let server = try startEchoServer { $0.maxConnections = 2 }
        defer { server.stop() }
        let first = try RawClient(port: server.port)
        let second = try RawClient(port: server.port)
        defer {
            first.close()
            second.close()
        }
        // Both are admitted once each has been answered.
        first.send("GET /1 HTTP/1.1\r\nHost: h\r\n\r\n")
        second.send("GET /2 HTTP/1.1\r\nHost: h\r\n\r\n")
        #expect(first.read(responses: 1).contains("GET /1"))
        #expect(second.read(responses: 1).contains("GET /2"))
        let third = try RawClient(port: server.port)
        defer { third.close() }
        #expect(third.readToEnd().hasPrefix("HTTP/1.1 503 Service Unavailable"))
    }

    @Test func idleConnectionsAreClosed() throws {
        let server = try startEchoServer { $0.idleSeconds = 0.3 }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\n")
        // The answer to /a, then the close, with nothing to answer.
        let text = client.readToEnd()
        #expect(text.contains("GET /a 0 ok"))
        #expect(text.components("HTTP/1.1 ") == 1)
        #expect(waitUntilNoConnections(server))
    }

    @Test func aBegunRequestThatStallsIs408() throws {
        let server = try startEchoServer { $0.idleSeconds = 0.3 }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /half")
        let text = client.readToEnd()
        #expect(text.contains("GET /a 0 ok"))
        #expect(text.components("HTTP/1.1 ") == 2)
        #expect(text.contains("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(text.contains("Connection: close"))
    }

    /// A client that sends a byte well within the idle limit each time, head or body, holds its
    /// connection only until the request's deadline: then 408, closed, and the one slot serves
    /// the next client. Without a deadline it would keep the slot as long as it has bytes.
    @Test(arguments: ["head", "body"])
    func aTrickledRequestIs408AtItsDeadline(_ part: String) throws {
        let server = try startEchoServer {
            $0.idleSeconds = 30
            $0.requestSeconds = 0.3
            $0.maxConnections = 1
        }
        defer { server.stop() }
        let slow = try RawClient(port: server.port)
        let filler = String(repeating: "a", count: 400)
        if part == "head" {
            let answer = slow.trickle("GET /slow HTTP/1.1\r\nHost: h\r\nX-Filler: \(filler)\r\n\r\n", gap: 0.05)
            #expect(answer?.hasPrefix("HTTP/1.1 408 Request Timeout\r\n") == true, "\(answer ?? "no answer")")
            #expect(answer?.contains("Connection: close") == true)
        } else {
            slow.send("POST /slow HTTP/1.1\r\nHost: h\r\nContent-Length: \(filler.utf8.count)\r\n\r\n")
            let answer = slow.trickle(filler, gap: 0.05)
            #expect(answer?.hasPrefix("HTTP/1.1 408 Request Timeout\r\n") == true, "\(answer ?? "no answer")")
        }
        slow.close()
        #expect(waitUntilNoConnections(server))
        let next = try RawClient(port: server.port)
        defer { next.close() }
        next.send("GET /next HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(next.readToEnd().contains("GET /next 0 ok"))
    }

    @Test func theDeadlineIsPerRequest() throws {
        // Each request arrives in time; the quiet between them, longer than the deadline, is no
        // request's time: the connection stays open, unanswered, and serves the next one.
        let server = try startEchoServer { $0.requestSeconds = 0.2 }
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        for index in 0..<3 {
            client.send("GET /\(index) HTTP/1.1\r\nHost: h\r\n\r\n")
            #expect(client.read(responses: 1).contains("GET /\(index) 0 ok"))
            #expect(client.staysQuiet(seconds: 0.4))
        }
    }

    @Test func aChunkSizeWithASignIs400AndTheServerLives() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        let bad = try RawClient(port: server.port)
        bad.send(
            "POST /am/json/realms/root/realms/alpha/authenticate HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n{}\r\n0\r\n\r\n"
        )
        #expect(bad.readToEnd().hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        bad.close()
        let good = try RawClient(port: server.port)
        defer { good.close() }
        good.send("GET /y HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n")
        #expect(good.readToEnd().contains("GET /y 0 ok"))
    }

    @Test func expectContinueGetsAnInterimResponse() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port)
        defer { client.close() }
        client.send("POST /e HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 4\r\n\r\n")
        let interim = client.read(responses: 1)
        #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n", "\(interim)")
        client.send("body")
        let final = client.read(responses: 1)
        #expect(final.contains("POST /e 4 ok"))
    }

    @Test func portInUseIsAClearStartFailure() throws {
        let server = try startEchoServer()
        defer { server.stop() }
        var configuration = HTTPServer.Configuration()
        configuration.endpoint.port = server.port
        #expect(throws: HTTPServer.StartFailure.self) { try HTTPServer(configuration: configuration) }
    }
}
