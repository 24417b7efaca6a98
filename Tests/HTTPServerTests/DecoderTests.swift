import HTTPServer
import Testing

/// Feeds `input` in chunks of `chunk` bytes and collects every event.
func decode(_ input: String, chunk: Int, limits: HTTPRequestDecoder.Limits = .init()) -> [HTTPRequestDecoder.Event] {
    var decoder = HTTPRequestDecoder(limits: limits)
    let bytes = Array(input.utf8)
    var events: [HTTPRequestDecoder.Event] = []
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + chunk, bytes.count)
        decoder.append(bytes[offset..<end])
        while let event = decoder.next() { events.append(event) }
        offset = end
    }
    return events
}

private func requests(_ events: [HTTPRequestDecoder.Event]) -> [HTTPRequest] {
    events.compactMap { if case .request(let request) = $0 { return request } else { return nil } }
}

private func failure(_ events: [HTTPRequestDecoder.Event]) -> HTTPRequestDecoder.Failure? {
    guard case .failure(let failure)? = events.last else { return nil }
    return failure
}

@Suite struct RequestDecoding {
    let pipelined =
        "GET /am/json/serverinfo/* HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n"
        + "POST /am/oauth2/access_token?x=1 HTTP/1.1\r\nHost: h\r\nContent-Length: 11\r\n\r\ngrant_type="
        + "\r\n\r\nPOST /c HTTP/1.1\r\nhost: h\r\ntransfer-encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5\r\npedia\r\n0\r\nX-Trailer: y\r\n\r\n"
        + "GET / HTTP/1.0\r\n\r\n"

    @Test func sameRequestsForEveryChunking() {
        let expected = decode(pipelined, chunk: pipelined.utf8.count)
        #expect(requests(expected).count == 4)
        for chunk in [1, 2, 3, 7, 13, 64] {
            #expect(decode(pipelined, chunk: chunk) == expected, "chunk size \(chunk)")
        }
    }

    @Test func fieldsTargetsAndBodies() {
        let all = requests(decode(pipelined, chunk: 5))
        #expect(all[0].method == "GET")
        #expect(all[0].path == "/am/json/serverinfo/*")
        #expect(all[0].header("accept") == "*/*")
        #expect(all[1].path == "/am/oauth2/access_token")
        #expect(all[1].query == "x=1")
        #expect(all[1].body == Array("grant_type=".utf8))
        #expect(all[2].body == Array("Wikipedia".utf8))
        #expect(all[3].minorVersion == 0)
        #expect(all[3].body.isEmpty)
    }

    @Test func keepAliveFollowsVersionAndConnectionHeader() {
        let cases: [(String, Bool)] = [
            ("GET / HTTP/1.1\r\nHost: h\r\n\r\n", true),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n", false),
            ("GET / HTTP/1.1\r\nHost: h\r\nConnection: Upgrade, Close\r\n\r\n", false),
            ("GET / HTTP/1.0\r\n\r\n", false),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", true),
        ]
        for (text, keepAlive) in cases {
            #expect(requests(decode(text, chunk: 4)).first?.wantsKeepAlive == keepAlive, "\(text)")
        }
    }

    @Test func bareLineFeedsAndLeadingEmptyLinesAreRead() {
        let all = requests(decode("\r\n\nGET /a HTTP/1.1\nHost: h\n\n", chunk: 1))
        #expect(all.map(\.path) == ["/a"])
    }

    @Test func absoluteFormTargetBecomesAPath() {
        #expect(
            requests(decode("GET http://127.0.0.1:8080/am/x?y=1 HTTP/1.1\r\nHost: h\r\n\r\n", chunk: 3)).first?.target
                == "/am/x?y=1")
    }

    @Test func badRequestLinesAreRefusedWith400() {
        for line in [
            "GARBAGE", "GET /\tx HTTP/1.1", "GET  / HTTP/1.1", "GET / HTTP/1.1 extra", "G(T / HTTP/1.1",
            "GET x HTTP/1.1", "GET / HTTX/1.1", "GET / HTTP/1.12",
        ] {
            let events = decode("\(line)\r\nHost: h\r\n\r\n", chunk: 2)
            #expect(failure(events)?.status == 400, "\(line)")
            #expect(requests(events).isEmpty)
        }
        #expect(failure(decode("GET / HTTP/2.0\r\nHost: h\r\n\r\n", chunk: 2))?.status == 505)
    }

    @Test func badHeadersAreRefused() {
        let cases: [(String, Int)] = [
            ("Host h", 400),
            ("Host : h", 400),
            ("Host: h\r\n folded", 400),
            ("Host: a\u{01}b", 400),
            ("Host: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked", 400),
            ("Host: h\r\nContent-Length: 3\r\nContent-Length: 4", 400),
            ("Host: h\r\nContent-Length: -1", 400),
            // Framing read one way here and another by a proxy in front: RFC 9112 §6.
            ("Host: h\r\nContent-Length:", 400),
            ("Host: h\r\nContent-Length: \t", 400),
            ("Host: h\r\nContent-Length: +3", 400),
            ("Host: h\r\nContent-Length: 3 3", 400),
            ("Host: h\r\nContent-Length: 0x3", 400),
            ("Host: h\r\nContent-Length: 3,", 400),
            ("Host: h\r\nContent-Length: 3, 4", 400),
            ("Host: h\r\nContent-Length: \u{0663}", 400),
            ("Host: h\r\nContent-Length: 3\r\nContent-Length:", 400),
            ("Host: h\r\nContent-Length: 99999999999999999999999", 413),
            ("Host: h\r\nTransfer-Encoding: gzip", 400),
            ("Host: h\r\nTransfer-Encoding:", 400),
            ("Host: h\r\nTransfer-Encoding: chunked, gzip", 400),
            ("Host: h\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked", 400),
            ("Host: h\r\nTransfer-Encoding: chunked;q=1", 400),
            ("Host: h\r\nTransfer-Encoding: gzip, chunked", 501),
            ("X: y", 400),  // HTTP/1.1 without Host
        ]
        for (headers, status) in cases {
            #expect(
                failure(decode("POST / HTTP/1.1\r\n\(headers)\r\n\r\nabc", chunk: 3))?.status == status, "\(headers)")
        }
    }

    @Test func nothingAfterAFailure() {
        var decoder = HTTPRequestDecoder()
        decoder.append(Array("BAD\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8))
        #expect(decoder.next() == .failure(.init(status: 400, "malformed request line")))
        #expect(decoder.next() == nil)
    }

    @Test func oversizeHeadIs431WhateverTheChunking() {
        let limits = HTTPRequestDecoder.Limits(maxHeaderBytes: 64)
        let long = "GET / HTTP/1.1\r\nHost: h\r\nX: \(String(repeating: "a", count: 80))\r\n\r\n"
        for chunk in [1, 10, 200] {
            #expect(failure(decode(long, chunk: chunk, limits: limits))?.status == 431, "chunk \(chunk)")
        }
        // A head with no end at all is refused once it passes the limit, not when it ends.
        #expect(
            failure(decode("GET / HTTP/1.1\r\nX: \(String(repeating: "b", count: 100))", chunk: 1, limits: limits))?
                .status == 431)
        let many = "GET / HTTP/1.1\r\nHost: h\r\n" + String(repeating: "A: b\r\n", count: 5) + "\r\n"
        #expect(failure(decode(many, chunk: 4, limits: .init(maxHeaderCount: 3)))?.status == 431)
    }

    @Test func oversizeBodyIs413ForBothFramings() {
        let limits = HTTPRequestDecoder.Limits(maxBodyBytes: 8)
        #expect(
            failure(decode("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 9\r\n\r\n", chunk: 1, limits: limits))?.status
                == 413)
        let exact = decode("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 8\r\n\r\n12345678", chunk: 1, limits: limits)
        #expect(requests(exact).first?.body.count == 8)
        let chunked =
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n12345\r\n4\r\n6789\r\n0\r\n\r\n"
        #expect(failure(decode(chunked, chunk: 2, limits: limits))?.status == 413)
    }

    @Test func identicalContentLengthsAreOneLength() {
        for headers in ["Content-Length: 3\r\nContent-Length: 3", "Content-Length: 3, 003", "Content-Length:\t03 "] {
            let events = decode("POST / HTTP/1.1\r\nHost: h\r\n\(headers)\r\n\r\nabc", chunk: 2)
            #expect(requests(events).first?.body == Array("abc".utf8), "\(headers)")
        }
    }

    @Test func malformedChunksAre400() {
        let readAsHex22 = "2 2\r\n" + String(repeating: "x", count: 34)
        let bodies: [String] = [
            "zz\r\nab\r\n0\r\n\r\n", "2\r\nabc\r\n0\r\n\r\n", "\r\n",
            // A sign once reached a range with its bounds reversed, and the process died.
            "-1\r\n{}\r\n0\r\n\r\n", "+2\r\nab\r\n0\r\n\r\n", "-0\r\n\r\n", "+0\r\n\r\n",
            // Space inside, before or after the size, a prefix, an extension without a name or value.
            "\(readAsHex22)\r\n0\r\n\r\n", " 2\r\nab\r\n0\r\n\r\n", "2 \r\nab\r\n0\r\n\r\n",
            "0x2\r\nab\r\n0\r\n\r\n", "2;\r\nab\r\n0\r\n\r\n", "2;=v\r\nab\r\n0\r\n\r\n", "2;a=\r\nab\r\n0\r\n\r\n",
            "2;a=\"open\r\nab\r\n0\r\n\r\n", "2;a b\r\nab\r\n0\r\n\r\n", "2;a=b c\r\nab\r\n0\r\n\r\n",
            // Every line of a chunked body ends in CRLF.
            "2\nab\r\n0\r\n\r\n", "2\r\nab\n0\r\n\r\n", "2\r\nab\r\n0\n\r\n", "2\r\nab\r\n0\r\n\n",
            "2\r\nab\r\n0\r\nX: y\n\r\n", "2\r\r\nab\r\n0\r\n\r\n",
            // Trailers are field lines.
            "0\r\nbad\r\n\r\n", "0\r\n folded: x\r\n\r\n", "0\r\nX : y\r\n\r\n",
        ]
        for body in bodies {
            let text =
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(body)GET / HTTP/1.1\r\nHost: h\r\n\r\n"
            let events = decode(text, chunk: 1)
            #expect(events.count == 1 && failure(events)?.status == 400, "\(body.debugDescription): \(events)")
        }
    }

    @Test func chunkSizesAndExtensionsAsTheGrammarAllows() {
        let bodies: [(String, String)] = [
            ("000000000000000000000000002\r\nab\r\n0\r\n\r\n", "ab"),
            ("A\r\n0123456789\r\n0000\r\n\r\n", "0123456789"),
            ("2 ; a = b ;c=\"x;y \\\" z\"\t;d\r\nab\r\n0;e\r\nX: y\r\n\r\n", "ab"),
        ]
        for (body, content) in bodies {
            let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(body)"
            #expect(requests(decode(text, chunk: 1)).first?.body == Array(content.utf8), "\(body.debugDescription)")
        }
        // A size no body could have is 413 however many digits it has: it never overflows.
        let sizes: [String] = ["FFFFFFFFFFFFFFFFFFFFFFFF", "8000000000000000", "100001"]
        for size in sizes {
            let text = "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n"
            #expect(failure(decode(text, chunk: 3))?.status == 413, "\(size)")
        }
    }

    @Test func continueIsExpectedOnlyBeforeTheBody() {
        let head = "POST / HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n"
        var decoder = HTTPRequestDecoder()
        decoder.append(Array(head.utf8))
        #expect(decoder.next() == .continueExpected)
        #expect(decoder.next() == nil)
        decoder.append(Array("ok".utf8))
        guard case .request(let request)? = decoder.next() else {
            Issue.record("no request")
            return
        }
        #expect(request.body == Array("ok".utf8))
        // Body already there: no interim response.
        #expect(decode(head + "ok", chunk: 1000).count == 1)
    }

    @Test func idleOnlyBetweenRequests() {
        var decoder = HTTPRequestDecoder()
        #expect(decoder.isIdle)
        decoder.append(Array("GET / HT".utf8))
        #expect(decoder.next() == nil)
        #expect(!decoder.isIdle)
        decoder.append(Array("TP/1.1\r\nHost: h\r\n\r\n\r\n".utf8))
        #expect(decoder.next() != nil)
        #expect(decoder.isIdle)
    }
}

@Suite struct ResponseEncoding {
    @Test func lengthAndCloseAreTheEncoders() {
        var out: [UInt8] = []
        let response = HTTPResponse(
            status: 200, headers: [.init("Content-Length", "99"), .init("X-A", "b")], body: Array("hi".utf8))
        response.encode(into: &out, keepAlive: false)
        #expect(
            String(decoding: out, as: UTF8.self)
                == "HTTP/1.1 200 OK\r\nX-A: b\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi")
    }

    @Test func headAndNoContentCarryNoBody() {
        var out: [UInt8] = []
        HTTPResponse(status: 200, body: Array("hi".utf8)).encode(into: &out, keepAlive: true, headOnly: true)
        #expect(String(decoding: out, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n")
        out.removeAll()
        HTTPResponse(status: 204, body: Array("x".utf8)).encode(into: &out, keepAlive: true)
        #expect(String(decoding: out, as: UTF8.self) == "HTTP/1.1 204 No Content\r\n\r\n")
    }
}
