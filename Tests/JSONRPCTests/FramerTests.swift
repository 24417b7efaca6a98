import JSONRPC
import Testing

/// Feeds `input` to a framer in the given chunk sizes and collects every event, EOF included.
private func events(_ framer: some Framer, _ input: [UInt8], chunk: Int) -> [FrameEvent] {
    var framer = framer
    var out: [FrameEvent] = []
    var offset = 0
    while offset < input.count {
        let end = min(offset + chunk, input.count)
        framer.append(input[offset..<end])
        while let event = framer.next() { out.append(event) }
        offset = end
    }
    if let last = framer.finish() { out.append(last) }
    return out
}

private func frames(_ texts: String...) -> [FrameEvent] { texts.map { .frame(Array($0.utf8)) } }

@Suite struct NDJSONFraming {
    let framer = NDJSONFramer(maxFrameBytes: 64)

    @Test func sameEventsForEveryChunking() {
        let input = Array("{\"a\":1}\n{\"b\":\"é✓\"}\r\n\n   \n[1,2]\n".utf8)
        let expected = frames("{\"a\":1}", "{\"b\":\"é✓\"}", "[1,2]")
        for chunk in [1, 2, 3, 5, 7, 11, input.count] {
            #expect(events(framer, input, chunk: chunk) == expected, "chunk size \(chunk)")
        }
    }

    @Test func utf8SplitAcrossReadsStaysIntact() {
        // "✓" is E2 9C 93: every split point inside it must still give the whole character.
        let input = Array("\"✓\"\n".utf8)
        for chunk in 1...3 {
            #expect(events(framer, input, chunk: chunk) == frames("\"✓\""))
        }
    }

    @Test func byteOrderMarkOnlyOnTheFirstLine() {
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("1\n".utf8) + [0xEF, 0xBB, 0xBF] + Array("2\n".utf8)
        #expect(events(framer, input, chunk: 1) == [.frame(Array("1".utf8)), .frame([0xEF, 0xBB, 0xBF] + Array("2".utf8))])
    }

    @Test func oversizedLineIsRefusedWhateverTheChunking() {
        let long = String(repeating: "x", count: 100)
        let input = Array("{\"a\":1}\n\(long)\n{\"b\":2}\n".utf8)
        for chunk in [1, 10, 64, 65, input.count] {
            #expect(events(framer, input, chunk: chunk) == [.frame(Array("{\"a\":1}".utf8)), .oversized(limit: 64), .frame(Array("{\"b\":2}".utf8))],
                    "chunk size \(chunk)")
        }
    }

    @Test func lineOfExactlyTheLimitIsAccepted() {
        let line = String(repeating: "y", count: 64)
        #expect(events(framer, Array("\(line)\n".utf8), chunk: 7) == frames(line))
        #expect(events(framer, Array("\(line)\r\n".utf8), chunk: 7) == frames(line))
    }

    @Test func partialLastLineIsReportedAtEOF() {
        #expect(events(framer, Array("{\"a\":1}\n{\"b\"".utf8), chunk: 3) == [.frame(Array("{\"a\":1}".utf8)), .truncated(byteCount: 4)])
        #expect(events(framer, Array("{\"a\":1}\n   ".utf8), chunk: 3) == frames("{\"a\":1}"))
    }

    @Test func encodeAppendsNewline() {
        var out: [UInt8] = []
        framer.encode(Array("{}".utf8), into: &out)
        #expect(out == Array("{}\n".utf8))
    }
}

@Suite struct ContentLengthFraming {
    let framer = ContentLengthFramer(maxFrameBytes: 32)

    @Test func bodiesSplitAnywhere() {
        let body1 = "{\"id\":1}"
        let body2 = "{\"é\":\"✓\"}"
        let input = Array("Content-Length: \(body1.utf8.count)\r\n\r\n\(body1)content-length:\(body2.utf8.count)\r\nContent-Type: application/json\r\n\r\n\(body2)".utf8)
        for chunk in [1, 2, 5, input.count] {
            #expect(events(framer, input, chunk: chunk) == frames(body1, body2), "chunk size \(chunk)")
        }
    }

    @Test func oversizedBodyIsSkipped() {
        let big = String(repeating: "z", count: 40)
        let input = Array("Content-Length: 40\r\n\r\n\(big)Content-Length: 2\r\n\r\n{}".utf8)
        for chunk in [1, 16, input.count] {
            #expect(events(framer, input, chunk: chunk) == [.oversized(limit: 32), .frame(Array("{}".utf8))])
        }
    }

    @Test func badHeadersAreReported() {
        let missing = events(framer, Array("Content-Type: x\r\n\r\nContent-Length: 2\r\n\r\n{}".utf8), chunk: 4)
        #expect(missing == [.malformed("missing Content-Length header"), .frame(Array("{}".utf8))])
        let notNumber = events(framer, Array("Content-Length: abc\r\n\r\n".utf8), chunk: 4)
        #expect(notNumber == [.malformed("Content-Length is not a valid length: abc")])
    }

    @Test func truncatedBodyAtEOF() {
        #expect(events(framer, Array("Content-Length: 10\r\n\r\n{\"a\"".utf8), chunk: 3) == [.truncated(byteCount: 4)])
    }

    @Test func encodeWritesHeader() {
        var out: [UInt8] = []
        framer.encode(Array("{\"é\":1}".utf8), into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "Content-Length: 8\r\n\r\n{\"é\":1}")
    }

    @Test func detection() {
        #expect(Framing.detect(firstByte: UInt8(ascii: "C")) == .contentLength)
        #expect(Framing.detect(firstByte: UInt8(ascii: "{")) == .ndjson)
        #expect(Framing.detect(firstByte: UInt8(ascii: "[")) == .ndjson)
    }
}
