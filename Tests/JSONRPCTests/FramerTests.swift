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
        #expect(
            events(framer, input, chunk: 1) == [.frame(Array("1".utf8)), .frame([0xEF, 0xBB, 0xBF] + Array("2".utf8))])
    }

    @Test func oversizedLineIsRefusedWhateverTheChunking() {
        let long = String(repeating: "x", count: 100)
        let input = Array("{\"a\":1}\n\(long)\n{\"b\":2}\n".utf8)
        for chunk in [1, 10, 64, 65, input.count] {
            #expect(
                events(framer, input, chunk: chunk) == [
                    .frame(Array("{\"a\":1}".utf8)), .oversized(limit: 64), .frame(Array("{\"b\":2}".utf8)),
                ],
                "chunk size \(chunk)")
        }
    }

    @Test func lineOfExactlyTheLimitIsAccepted() {
        let line = String(repeating: "y", count: 64)
        #expect(events(framer, Array("\(line)\n".utf8), chunk: 7) == frames(line))
        #expect(events(framer, Array("\(line)\r\n".utf8), chunk: 7) == frames(line))
    }

    @Test func partialLastLineIsReportedAtEOF() {
        #expect(
            events(framer, Array("{\"a\":1}\n{\"b\"".utf8), chunk: 3) == [
                .frame(Array("{\"a\":1}".utf8)), .truncated(byteCount: 4),
            ])
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
        let input = Array(
            "Content-Length: \(body1.utf8.count)\r\n\r\n\(body1)content-length:\(body2.utf8.count)\r\nContent-Type: application/json\r\n\r\n\(body2)"
                .utf8)
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

/// The frame limit counts a frame's content, however the pipe splits its bytes (issue 19).
@Suite struct FrameLimitWhateverTheSplit {
    let limit = 64

    @Test func aLineAtTheLimitWithCRLFIsAcceptedEvenWhenCRAndLFArriveApart() {
        let content = "[" + String(repeating: "1,", count: 30) + "11]"
        #expect(content.utf8.count == limit)
        let framer = NDJSONFramer(maxFrameBytes: limit)
        let input = Array((content + "\r\n").utf8)
        for chunk in [1, 7, limit, limit + 1, input.count] {
            #expect(events(framer, input, chunk: chunk) == frames(content), "chunk size \(chunk)")
        }
        // A second line, after the first line's allowance for a BOM is gone.
        let twoLines = Array(("[]\n" + content + "\r\n").utf8)
        for chunk in [1, 3, limit + 3, twoLines.count] {
            #expect(events(framer, twoLines, chunk: chunk) == frames("[]", content), "chunk size \(chunk)")
        }
    }

    @Test func aBOMBeforeAFirstLineAtTheLimitIsNotCounted() {
        let content = "\"" + String(repeating: "x", count: limit - 2) + "\""
        let input: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((content + "\r\n").utf8)
        for chunk in [1, 2, limit, input.count] {
            #expect(
                events(NDJSONFramer(maxFrameBytes: limit), input, chunk: chunk) == frames(content),
                "chunk size \(chunk)")
        }
    }

    @Test func oneByteOverIsStillRefusedWhateverTheSplit() {
        let content = "\"" + String(repeating: "x", count: limit - 1) + "\""
        let input = Array((content + "\r\n[]\n").utf8)
        for chunk in [1, 5, limit, input.count] {
            #expect(
                events(NDJSONFramer(maxFrameBytes: limit), input, chunk: chunk) == [.oversized(limit: limit)]
                    + frames("[]"))
        }
    }
}

/// A wrong Content-Length costs one error, not every later frame (issue 19).
@Suite struct ContentLengthResynchronization {
    let framer = ContentLengthFramer(maxFrameBytes: 1024)

    static func frame(_ body: String, length: Int? = nil) -> String {
        "Content-Length: \(length ?? body.utf8.count)\r\n\r\n" + body
    }

    @Test func aTooShortLengthIsFollowedByTheNextFrameAgain() {
        let ping = #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#
        let next = #"{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}"#
        let last = #"{"jsonrpc":"2.0","id":3,"method":"daemon.ping"}"#
        let input = Array((Self.frame(ping, length: 10) + Self.frame(next) + Self.frame(last)).utf8)
        for chunk in [1, 9, input.count] {
            let got = events(framer, input, chunk: chunk)
            #expect(got.count == 4, "chunk size \(chunk): \(got)")
            #expect(got.first == .frame(Array(ping.utf8.prefix(10))))
            if case .malformed(let reason)? = got.dropFirst().first {
                #expect(reason.contains("skipped"))
            } else {
                Issue.record("expected one malformed event, got \(got)")
            }
            #expect(Array(got.suffix(2)) == frames(next, last), "chunk size \(chunk)")
        }
    }

    @Test func conflictingDuplicateLengthsAreAnError() {
        let input = Array(
            "Content-Length: 2\r\nContent-Length: 3\r\n\r\n[]Content-Length: 2\r\ncontent-length: 2\r\n\r\n[]".utf8)
        let got = events(framer, input, chunk: input.count)
        #expect(got.first == .malformed("conflicting Content-Length headers: 2 and 3"))
        #expect(got.last == .frame(Array("[]".utf8)), "an agreeing duplicate is fine")
    }
}
