import AuthBridgeCore
import JSONRPC
import Testing

/// Collects what the server writes, one parsed JSON value per message.
final class CapturingSink: MessageSink {
    var messages: [JSONValue] = []
    func send(_ body: [UInt8]) { messages.append(try! JSONParser.parse(body)) }
}

private func makeServer() -> RPCServer {
    let server = RPCServer(limits: RPCServer.Limits(maxDepth: 8, maxBatchLength: 4))
    server.register("echo") { call throws(JSONRPCError) in call.params ?? .null }
    server.register("reject") { _ throws(JSONRPCError) in throw .nativeRejection(code: "Error", message: "LoginFailure")
    }
    return server
}

/// Sends one raw frame and returns what came back.
private func exchange(_ server: RPCServer, _ frame: String) -> [JSONValue] {
    let sink = CapturingSink()
    server.handle(frame: Array(frame.utf8), sink: sink)
    return sink.messages
}

private func errorCode(_ message: JSONValue) -> Int64? { message["error"]?["code"]?.intValue }

@Suite struct RPCEnvelope {
    @Test func requestGetsItsIdBack() {
        let server = makeServer()
        #expect(
            exchange(server, #"{"jsonrpc":"2.0","id":7,"method":"echo","params":[1,"a"]}"#)
                == [["jsonrpc": "2.0", "id": 7, "result": [1, "a"]]])
        #expect(
            exchange(server, #"{"jsonrpc":"2.0","id":"abc","method":"echo"}"#)
                == [["jsonrpc": "2.0", "id": "abc", "result": .null]])
    }

    @Test func notificationsGetNoReply() {
        let server = makeServer()
        #expect(exchange(server, #"{"jsonrpc":"2.0","method":"echo","params":[]}"#).isEmpty)
        #expect(exchange(server, #"{"jsonrpc":"2.0","method":"no.such.method"}"#).isEmpty)
        #expect(exchange(server, #"{"jsonrpc":"2.0","method":"reject"}"#).isEmpty)
    }

    @Test func parseErrors() {
        let server = makeServer()
        for frame in ["{", "not json", "{\"jsonrpc\":\"2.0\",}", "\"\u{7f}"] {
            let reply = exchange(server, frame)
            #expect(reply.count == 1)
            #expect(errorCode(reply[0]) == -32700, "\(frame)")
            #expect(reply[0]["id"] == .null)
        }
        let sink = CapturingSink()
        server.handle(frame: [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D], sink: sink)
        #expect(errorCode(sink.messages[0]) == -32700)
        #expect(sink.messages[0]["error"]?["message"]?.stringValue?.contains("invalid UTF-8") == true)
    }

    @Test func invalidRequests() {
        let server = makeServer()
        let cases: [(String, JSONValue)] = [
            ("42", .null),
            ("\"x\"", .null),
            ("null", .null),
            (#"{"id":1,"method":"echo"}"#, 1),
            (#"{"jsonrpc":"1.0","id":1,"method":"echo"}"#, 1),
            (#"{"jsonrpc":"2.0","id":1}"#, 1),
            (#"{"jsonrpc":"2.0","id":1,"method":5}"#, 1),
            (#"{"jsonrpc":"2.0","id":null,"method":"echo"}"#, .null),
            (#"{"jsonrpc":"2.0","id":1.5,"method":"echo"}"#, .null),
            (#"{"jsonrpc":"2.0","id":{},"method":"echo"}"#, .null),
            (#"{"jsonrpc":"2.0","id":[1],"method":"echo"}"#, .null),
            (#"{"jsonrpc":"2.0","id":true,"method":"echo"}"#, .null),
            (#"{"jsonrpc":"2.0","id":2,"method":"echo","params":"x"}"#, 2),
            ("[]", .null),
        ]
        for (frame, id) in cases {
            let reply = exchange(server, frame)
            #expect(reply.count == 1, "\(frame)")
            #expect(errorCode(reply[0]) == -32600, "\(frame)")
            #expect(reply[0]["id"] == id, "\(frame)")
        }
    }

    @Test func unknownMethod() {
        let reply = exchange(makeServer(), #"{"jsonrpc":"2.0","id":3,"method":"nope"}"#)
        #expect(errorCode(reply[0]) == -32601)
        #expect(reply[0]["error"]?["message"] == "Method not found: nope")
    }

    /// A face adds to an unknown method's error from its name, given as a value (never read back
    /// out of the message); in a batch too.
    @Test func anUnknownMethodsDataComesFromItsName() {
        let server = makeServer()
        var asked: [String] = []
        server.unknownMethodData = { method in
            asked.append(method)
            return method == "Echo" ? ["suggestion": "echo"] : nil
        }
        let single = exchange(server, #"{"jsonrpc":"2.0","id":3,"method":"Echo"}"#)
        #expect(single[0]["error"]?["data"] == ["suggestion": "echo"])
        #expect(single[0]["error"]?["message"] == "Method not found: Echo")
        let batch = exchange(server, #"[{"jsonrpc":"2.0","id":4,"method":"nope"}]"#)
        #expect(batch[0].arrayValue?.first?["error"]?["data"] == nil)
        #expect(asked == ["Echo", "nope"])
    }

    @Test func nativeRejectionShape() {
        let reply = exchange(makeServer(), #"{"jsonrpc":"2.0","id":4,"method":"reject"}"#)
        #expect(
            reply == [
                [
                    "jsonrpc": "2.0", "id": 4,
                    "error": ["code": -32000, "message": "LoginFailure", "data": ["code": "Error"]],
                ]
            ])
    }

    @Test func nestingLimit() {
        let server = makeServer()
        let deep =
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"echo\",\"params\":" + String(repeating: "[", count: 9)
            + String(repeating: "]", count: 9) + "}"
        let reply = exchange(server, deep)
        #expect(errorCode(reply[0]) == -32600)
        #expect(reply[0]["error"]?["data"]?["limit"] == 8)
        #expect(exchange(server, #"{"jsonrpc":"2.0","id":2,"method":"echo","params":[[1]]}"#)[0]["result"] == [[1]])
    }

    @Test func frameEventsBecomeErrors() {
        let server = makeServer()
        let sink = CapturingSink()
        RPCConnection.handle(.oversized(limit: 10), server: server, sink: sink)
        RPCConnection.handle(.malformed("missing Content-Length header"), server: server, sink: sink)
        RPCConnection.handle(.truncated(byteCount: 3), server: server, sink: sink)
        #expect(sink.messages.map(errorCode) == [-32600, -32600])
        #expect(sink.messages[0]["error"]?["data"]?["limit"] == 10)
    }
}

@Suite struct RPCBatches {
    @Test func batchAnswersInOrderWithoutNotifications() {
        let replies = exchange(
            makeServer(),
            #"[{"jsonrpc":"2.0","id":1,"method":"echo","params":[1]},{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","id":2,"method":"nope"}]"#
        )
        #expect(replies.count == 1)
        let array = replies[0].arrayValue ?? []
        #expect(array.count == 2)
        #expect(array[0]["result"] == [1])
        #expect(errorCode(array[1]) == -32601)
    }

    @Test func batchOfNotificationsIsSilent() {
        #expect(
            exchange(makeServer(), #"[{"jsonrpc":"2.0","method":"echo"},{"jsonrpc":"2.0","method":"echo"}]"#).isEmpty)
    }

    @Test func batchOfGarbage() {
        let replies = exchange(makeServer(), "[1,\"x\",null]")
        let array = replies[0].arrayValue ?? []
        #expect(array.count == 3)
        #expect(array.allSatisfy { errorCode($0) == -32600 && $0["id"] == .null })
    }

    @Test func batchLimit() {
        let item = #"{"jsonrpc":"2.0","id":1,"method":"echo"}"#
        let replies = exchange(makeServer(), "[" + Array(repeating: item, count: 5).joined(separator: ",") + "]")
        #expect(replies.count == 1)
        #expect(errorCode(replies[0]) == -32600)
    }

    @Test func stopRequestedEndsTheBatch() {
        let server = makeServer()
        server.register("stop") { _ throws(JSONRPCError) in
            server.stopRequested = true
            return .null
        }
        let replies = exchange(
            server, #"[{"jsonrpc":"2.0","id":1,"method":"stop"},{"jsonrpc":"2.0","id":2,"method":"echo"}]"#)
        #expect(replies[0].arrayValue?.count == 1)
    }
}

/// A result encoded once (daemon.hello's) goes out as exactly the bytes the tree would have.
@Suite struct EncodedResults {
    /// Every body as the sink's default methods encode it.
    final class BodySink: MessageSink {
        var bodies: [[UInt8]] = []
        func send(_ body: [UInt8]) { bodies.append(body) }
    }

    static let result: JSONValue = ["methods": ["a/b", "c\"d", "é\n"], "count": 2, "none": .null]

    private func server() -> RPCServer {
        let server = RPCServer()
        server.register("tree") { _ throws(JSONRPCError) in Self.result }
        server.registerEncoded("encoded") { _ throws(JSONRPCError) in EncodedResult(Self.result) }
        return server
    }

    private func bodies(_ server: RPCServer, _ frame: String) -> [[UInt8]] {
        let sink = BodySink()
        server.handle(frame: Array(frame.utf8), sink: sink)
        return sink.bodies
    }

    @Test func aResponseHasTheBytesOfTheWrittenTree() {
        let server = server()
        for id in ["7", #""x\"y/z""#, "-1"] {
            let tree = bodies(server, #"{"jsonrpc":"2.0","id":\#(id),"method":"tree"}"#)
            #expect(tree.count == 1)
            #expect(bodies(server, #"{"jsonrpc":"2.0","id":\#(id),"method":"encoded"}"#) == tree)
        }
        #expect(bodies(server, #"{"jsonrpc":"2.0","method":"encoded"}"#).isEmpty)
    }

    @Test func inABatchItIsAnsweredLikeAnyResult() {
        let replies = bodies(
            server(), #"[{"jsonrpc":"2.0","id":1,"method":"tree"},{"jsonrpc":"2.0","id":1,"method":"encoded"}]"#)
        let batch = replies.first.flatMap { try? JSONParser.parse($0) }?.arrayValue
        #expect(batch?.count == 2)
        #expect(batch?.first == batch?.last)
    }

    @Test func theFrameWriterCopiesItInPlaceInEitherFraming() throws {
        for framing in [Framing.ndjson, .contentLength] {
            let path = "/tmp/authbridge-encoded-\(framing.rawValue)-\(UInt32.random(in: 0...UInt32.max))"
            let fd = try FDIO.open(path, [.writeOnly, .create, .exclusive]).get()
            defer { FDIO.remove(in: -1, path) }  // an absolute path: unlinkat ignores the directory
            let writer = FrameWriter(fd: fd, framing: framing)
            writer.send(message: JSONRPCOutgoing.response(id: .int(3), result: Self.result))
            writer.send(response: .int(3), encoded: EncodedResult(Self.result))
            writer.flush()
            writer.waitUntilWritten()
            FDIO.close(fd)
            let written = try FileBytes.read(path: path).get()
            #expect(written.count % 2 == 0)
            #expect(written[..<(written.count / 2)] == written[(written.count / 2)...], "\(framing)")
        }
    }
}
