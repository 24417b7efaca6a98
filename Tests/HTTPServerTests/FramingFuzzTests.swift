import HTTPServer
import Testing

/// Seeded, bounded fuzzing of how a request's body is framed: random framings, valid and broken,
/// are fed to the decoder in random pieces and compared with an oracle written here from RFC
/// 9112's grammar alone (whole input, no resumption, none of the decoder's code). A request
/// after the body checks that both agree on where it ends: a disagreement there is request
/// smuggling.
@Suite struct FramingFuzz {
    static let next = "GET /next HTTP/1.1\r\nHost: h\r\n\r\n"

    @Test func chunkedBodies() {
        var random = SplitMix(seed: 0x9112_0701)
        var tally = Tally()
        let head = "POST /f HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n"
        for round in 0..<3000 {
            let body = Generate.chunkedBody(&random)
            check(
                head: head, body: body, expected: Oracle.chunked(body + Array(Self.next.utf8)), &random, &tally, round)
        }
        tally.expectVariety()
    }

    @Test func contentLengths() {
        var random = SplitMix(seed: 0x9110_0806)
        var tally = Tally()
        for round in 0..<3000 {
            var body: [UInt8] = []
            for _ in 0..<random.below(20) { body.append(random.byte()) }
            let fields = Generate.contentLengths(&random, length: body.count)
            let encoding: [String] = random.chance(0.1) ? ["Transfer-Encoding: chunked"] : []
            let lines: [String] =
                ["POST /f HTTP/1.1", "Host: h"] + fields.map { "Content-Length:" + $0 } + encoding + ["", ""]
            let rest = body + Array(Self.next.utf8)
            let expected = Oracle.contentLength(fields: fields, alsoEncoded: !encoding.isEmpty, rest: rest)
            check(head: lines.joined(separator: "\r\n"), body: body, expected: expected, &random, &tally, round)
        }
        tally.expectVariety()
    }

    @Test func transferCodings() {
        var random = SplitMix(seed: 0x9112_0601)
        var tally = Tally()
        let codings: [String] = [
            "chunked", "Chunked", "CHUNKED", "gzip", "identity", "", " ", "chunked;q=1", "chunk ed",
        ]
        let separators: [String] = [",", ", ", " ,"]
        let body = Array("3\r\nabc\r\n0\r\n\r\n".utf8)
        for round in 0..<1000 {
            var fields: [String] = []
            for _ in 0..<1 + random.below(2) {
                var elements: [String] = []
                for _ in 0..<1 + random.below(3) { elements.append(random.pick(codings)) }
                fields.append(elements.joined(separator: random.pick(separators)))
            }
            let lines: [String] =
                ["POST /f HTTP/1.1", "Host: h"] + fields.map { "Transfer-Encoding: " + $0 } + ["", ""]
            let expected: Oracle.Outcome
            if let status = Oracle.transferCoding(fields) {
                expected = .status(status)
            } else {
                expected = Oracle.chunked(body + Array(Self.next.utf8))
            }
            check(head: lines.joined(separator: "\r\n"), body: body, expected: expected, &random, &tally, round)
        }
        #expect(tally.counts["body", default: 0] > 100)
        #expect(tally.counts["400", default: 0] > 100)
        #expect(tally.counts["501", default: 0] > 50)
    }

    /// Decodes `head + body + next` in random pieces, and whole, and compares with `expected`.
    private func check(
        head: String, body: [UInt8], expected: Oracle.Outcome, _ random: inout SplitMix, _ tally: inout Tally,
        _ round: Int
    ) {
        let input = Array(head.utf8) + body + Array(Self.next.utf8)
        let events = feed(input, &random)
        #expect(events == feed(input, whole: true, &random), "round \(round): the pieces changed the outcome")
        let shown = "round \(round): \(String(decoding: input, as: UTF8.self).debugDescription)"
        switch expected {
        case .status(let status):
            tally.counts["\(status)", default: 0] += 1
            guard events.count == 1, case .failure(let failure) = events[0] else {
                Issue.record("\(shown): expected \(status), got \(events)")
                return
            }
            #expect(failure.status == status, "\(shown): \(failure.message)")
        case .incomplete:
            tally.counts["incomplete", default: 0] += 1
            #expect(events.isEmpty, "\(shown): expected nothing yet, got \(events)")
        case .body(let expectedBody, let rest):
            tally.counts["body", default: 0] += 1
            guard case .request(let request)? = events.first else {
                Issue.record("\(shown): expected a request, got \(events)")
                return
            }
            #expect(request.body == expectedBody, "\(shown)")
            // When the oracle ends the body where it was meant to end, the next request is intact.
            if rest.elementsEqual(Self.next.utf8) {
                #expect(events.count == 2, "\(shown)")
                if case .request(let following)? = events.dropFirst().first {
                    #expect(following.path == "/next", "\(shown)")
                } else {
                    Issue.record("\(shown): no request after the body: \(events)")
                }
            }
        }
    }

    /// Every event, the input appended in random pieces of 1 to 9 bytes, or whole.
    private func feed(_ input: [UInt8], whole: Bool = false, _ random: inout SplitMix) -> [HTTPRequestDecoder.Event] {
        var decoder = HTTPRequestDecoder()
        var events: [HTTPRequestDecoder.Event] = []
        var offset = 0
        while offset < input.count {
            let end = whole ? input.count : min(input.count, offset + 1 + random.below(9))
            decoder.append(input[offset..<end])
            while let event = decoder.next() { events.append(event) }
            offset = end
        }
        return events
    }
}

/// How often each outcome came up: a generator that drifted to one outcome would test little.
private struct Tally {
    var counts: [String: Int] = [:]

    func expectVariety() {
        for outcome in ["body", "400", "413", "incomplete"] {
            #expect(
                counts[outcome, default: 0] >= 30, "only \(counts[outcome, default: 0]) cases of \(outcome): \(counts)")
        }
    }
}

/// SplitMix64: a small, seeded, reproducible stream.
struct SplitMix {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    mutating func chance(_ probability: Double) -> Bool { Double(next() % 1_000_000) < probability * 1_000_000 }
    mutating func pick<T>(_ choices: [T]) -> T { choices[below(choices.count)] }
    mutating func byte() -> UInt8 { UInt8(truncatingIfNeeded: next()) }
}

/// Framings as a client might send them: mostly well formed, with the mistakes and tricks
/// smuggling uses mixed in.
enum Generate {
    static func chunkedBody(_ random: inout SplitMix) -> [UInt8] {
        var out: [UInt8] = []
        func add(_ text: String) { out += Array(text.utf8) }
        // Data that looks like framing: size lines, CRLFs, a last chunk.
        let lookalikes: [UInt8] = Array("0a;\r\n \"-".utf8)
        for _ in 0..<random.below(4) {
            let count = 1 + random.below(12)
            var data: [UInt8] = []
            for _ in 0..<count { data.append(random.chance(0.3) ? random.byte() : random.pick(lookalikes)) }
            add(size(count, &random) + extensions(&random) + lineEnd(&random))
            out += data
            add(lineEnd(&random))
        }
        let lastSizes: [String] = ["0", "00", "000"]
        let badLastSizes: [String] = ["-0", "+0", "0 0", " 0", "", "0x0", "O"]
        add(random.chance(0.9) ? random.pick(lastSizes) : random.pick(badLastSizes))
        add(extensions(&random) + lineEnd(&random))
        let valid: [String] = ["X-T: v", "X-T:v \t", "x-t:", "X-T: a \"b\" ~"]
        let invalid: [String] = ["bad", " folded: x", "X T: v", "X-T: a\u{01}", ": v", "X-T : v"]
        for _ in 0..<(random.chance(0.8) ? 0 : 1 + random.below(2)) {
            add((random.chance(0.8) ? random.pick(valid) : random.pick(invalid)) + lineEnd(&random))
        }
        add(lineEnd(&random))
        return out
    }

    private static func size(_ count: Int, _ random: inout SplitMix) -> String {
        var hex = String(count, radix: 16, uppercase: random.chance(0.5))
        if random.chance(0.3) { hex = String(repeating: "0", count: 1 + random.below(3)) + hex }
        guard random.chance(0.25) else { return hex }
        let more = String(count + 1, radix: 16)
        let fewer = String(max(count - 1, 0), radix: 16)
        let tricks: [String] = [
            "+\(hex)", "-\(hex)", "-1", "\(hex) \(hex)", " \(hex)", "\(hex) ", "\(hex)\t", "0x\(hex)", "", more, fewer,
            "g",
            "FFFFFFFFFFFFFFFFFFFFFFFF", "100000", "0000000000000000000000000000\(hex)", "7fffffffffffffff",
        ]
        return random.pick(tricks)
    }

    private static func extensions(_ random: inout SplitMix) -> String {
        guard random.chance(0.4) else { return "" }
        let valid: [String] = [";a", ";a=b", " ; a = b", "\t;a=\"q \\\" ;x\"", ";a;b=c", ";name=\"\"", ";a=\"\\\t\""]
        let invalid: [String] = [
            ";", ";=b", ";a=", ";a=\"open", "; a b", ";a=\"bad\u{01}\"", " ", ";a ", ";a=b c", ";a=\"x\"y", "a",
        ]
        return random.chance(0.6) ? random.pick(valid) : random.pick(invalid)
    }

    private static func lineEnd(_ random: inout SplitMix) -> String {
        let tricks: [String] = ["\n", "\r", "", "\r\r\n", " \r\n"]
        return random.chance(0.93) ? "\r\n" : random.pick(tricks)
    }

    /// The values of the `Content-Length` fields, each as written after the colon.
    static func contentLengths(_ random: inout SplitMix, length: Int) -> [String] {
        let fields = random.chance(0.05) ? 0 : random.chance(0.8) ? 1 : 2 + random.below(2)
        let more = String(length + 1)
        let fewer = String(max(length - 1, 0))
        let tricks: [String] = [
            "", "+\(length)", "-0", "-\(length)", "\(length) \(length)", "0x\(length)", more, fewer,
            "99999999999999999999999", "1048577", "1048576", "\u{0663}", "1_0", "\(length).0",
        ]
        let separators: [String] = [",", ", ", " ,", ",,"]
        let before: [String] = ["", " ", "\t"]
        let after: [String] = ["", " "]
        var values: [String] = []
        for _ in 0..<fields {
            var elements: [String] = []
            for _ in 0..<(random.chance(0.85) ? 1 : 2) {
                let plain = (random.chance(0.2) ? "00" : "") + String(length)
                elements.append(random.chance(0.3) ? random.pick(tricks) : plain)
            }
            values.append(
                random.pick(before) + elements.joined(separator: random.pick(separators)) + random.pick(after))
        }
        return values
    }
}

/// RFC 9112 §6–7 and RFC 9110 §5.6, §8.6 for a complete input, written from the grammar and
/// sharing nothing with the decoder.
enum Oracle {
    enum Outcome: Equatable {
        /// The body, and what follows it.
        case body([UInt8], rest: ArraySlice<UInt8>)
        case status(Int)
        /// Not enough bytes to decide.
        case incomplete
    }

    static let limit = HTTPRequestDecoder.Limits().maxBodyBytes
    static let cr: UInt8 = 13
    static let lf: UInt8 = 10
    static let space: UInt8 = 32
    static let tab: UInt8 = 9
    static let quote: UInt8 = 34
    static let hexDigits = Set("0123456789abcdefABCDEF".utf8)
    static let tchars = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)

    static func isDigit(_ b: UInt8) -> Bool { b >= 48 && b <= 57 }
    static func isHex(_ b: UInt8) -> Bool { hexDigits.contains(b) }
    static func isTchar(_ b: UInt8) -> Bool { tchars.contains(b) }
    static func isOWS(_ b: UInt8) -> Bool { b == space || b == tab }
    /// qdtext: HTAB, SP, obs-text, and VCHAR but `"` and `\`.
    static func isQdtext(_ b: UInt8) -> Bool {
        if b == tab || b == space || b >= 0x80 { return true }
        return b > 0x20 && b < 0x7F && b != quote && b != 0x5C
    }

    enum Line { case text([UInt8]), malformed, missing }

    /// `chunked-body = *chunk last-chunk trailer-section CRLF`, every line ended by CRLF.
    static func chunked(_ input: [UInt8]) -> Outcome {
        var at = 0
        var body: [UInt8] = []
        /// The bytes before the next CRLF; `missing` when the input ends first. A bare LF, or a
        /// line longer than `maxLength`, is `malformed`.
        func line(maxLength: Int) -> Line {
            guard let end = input[at...].firstIndex(of: lf) else {
                return input.count - at > maxLength + 1 ? .malformed : .missing
            }
            guard end - at <= maxLength + 1, end > at, input[end - 1] == cr else { return .malformed }
            defer { at = end + 1 }
            return .text(Array(input[at..<end - 1]))
        }
        while true {
            let sizeLine = line(maxLength: 1024)
            if case .missing = sizeLine { return .incomplete }
            guard case .text(let text) = sizeLine, let size = chunkSize(text) else { return .status(400) }
            guard size <= limit - body.count else { return .status(413) }
            if size == 0 { break }
            guard input.count - at >= size else { return .incomplete }
            body += input[at..<at + size]
            at += size
            for expected in [cr, lf] {
                guard at < input.count else { return .incomplete }
                guard input[at] == expected else { return .status(400) }
                at += 1
            }
        }
        while true {
            switch line(maxLength: Int.max - 2) {
            case .missing: return .incomplete
            case .malformed: return .status(400)
            case .text(let text):
                if text.isEmpty { return .body(body, rest: input[at...]) }
                guard isFieldLine(text) else { return .status(400) }
            }
        }
    }

    /// The size a `chunk-size [chunk-ext]` line gives (Int.max when past any body), nil when
    /// the line is not one.
    static func chunkSize(_ text: [UInt8]) -> Int? {
        let digits = text.prefix(while: isHex)
        guard !digits.isEmpty, extensionsAreValid(text[digits.count...]) else { return nil }
        let significant = digits.drop { $0 == 48 }
        guard significant.count <= 15 else { return .max }
        return Int(String(decoding: significant, as: UTF8.self), radix: 16) ?? 0
    }

    enum Lexeme: Equatable { case whitespace, semicolon, equals, token, quoted }

    /// `*( BWS ";" BWS token [ BWS "=" BWS ( token / quoted-string ) ] )`: cut into lexemes
    /// (whitespace, `;`, `=`, a token, a quoted string), then the lexemes other than whitespace
    /// must read `;` name [`=` value] over and over, and whitespace may not end the line.
    static func extensionsAreValid(_ text: ArraySlice<UInt8>) -> Bool {
        var lexemes: [Lexeme] = []
        var rest = text
        while let first = rest.first {
            if isOWS(first) {
                lexemes.append(.whitespace)
                rest = rest.drop(while: isOWS)
            } else if first == UInt8(ascii: ";") {
                lexemes.append(.semicolon)
                rest = rest.dropFirst()
            } else if first == UInt8(ascii: "=") {
                lexemes.append(.equals)
                rest = rest.dropFirst()
            } else if isTchar(first) {
                lexemes.append(.token)
                rest = rest.drop(while: isTchar)
            } else if first == quote {
                // qdtext, or a backslash and HTAB, SP, VCHAR or obs-text, up to the closing quote.
                var cursor = rest.startIndex + 1
                var closed = false
                while cursor < rest.endIndex, !closed {
                    let b = rest[cursor]
                    if b == quote {
                        closed = true
                    } else if b == 0x5C {
                        cursor += 1
                        guard cursor < rest.endIndex else { return false }
                        let escaped = rest[cursor]
                        guard escaped == tab || (escaped >= 0x20 && escaped != 0x7F) else { return false }
                    } else if !isQdtext(b) {
                        return false
                    }
                    cursor += 1
                }
                guard closed else { return false }
                lexemes.append(.quoted)
                rest = rest[cursor...]
            } else {
                return false
            }
        }
        if lexemes.last == .whitespace { return false }
        let meaningful = lexemes.filter { $0 != .whitespace }
        var index = 0
        while index < meaningful.count {
            guard meaningful[index] == .semicolon, index + 1 < meaningful.count, meaningful[index + 1] == .token else {
                return false
            }
            index += 2
            if index < meaningful.count, meaningful[index] == .equals {
                guard index + 1 < meaningful.count else { return false }
                let value = meaningful[index + 1]
                guard value == .token || value == .quoted else { return false }
                index += 2
            }
        }
        return true
    }

    /// `field-name ":" OWS field-value OWS`: a token right before the colon, no control
    /// characters in the value but HTAB.
    static func isFieldLine(_ text: [UInt8]) -> Bool {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon > 0, text[..<colon].allSatisfy(isTchar) else {
            return false
        }
        return text[(colon + 1)...].allSatisfy { $0 == tab || ($0 >= 0x20 && $0 != 0x7F) }
    }

    /// RFC 9110 §8.6: every element of every field `1*DIGIT`, all the same decimal value; with
    /// `Transfer-Encoding` as well, refused (RFC 9112 §6.3).
    static func contentLength(fields: [String], alsoEncoded: Bool, rest: [UInt8]) -> Outcome {
        if alsoEncoded, !fields.isEmpty { return .status(400) }
        if alsoEncoded { return chunked(rest) }
        guard !fields.isEmpty else { return .body([], rest: rest[...]) }
        var values = Set<String>()
        for field in fields {
            for element in field.split(separator: ",", omittingEmptySubsequences: false) {
                let trimmed = Array(element.utf8).drop(while: isOWS).reversed().drop(while: isOWS).reversed()
                guard !trimmed.isEmpty, trimmed.allSatisfy(isDigit) else { return .status(400) }
                let significant = String(decoding: trimmed.drop { $0 == 48 }, as: UTF8.self)
                values.insert(significant.isEmpty ? "0" : significant)
            }
        }
        guard values.count == 1, let value = values.first else { return .status(400) }
        guard value.count <= 7, let length = Int(value), length <= limit else { return .status(413) }
        guard rest.count >= length else { return .incomplete }
        return .body(Array(rest[..<length]), rest: rest[length...])
    }

    /// RFC 9112 §6.1, §6.3 for a request's `Transfer-Encoding` fields: the status when they are
    /// refused, nil when the body is chunked.
    static func transferCoding(_ fields: [String]) -> Int? {
        var codings: [String] = []
        for field in fields {
            for element in field.split(separator: ",") {
                let bytes = Array(element.utf8).drop(while: isOWS).reversed().drop(while: isOWS).reversed()
                if !bytes.isEmpty { codings.append(String(decoding: bytes, as: UTF8.self).lowercased()) }
            }
        }
        guard codings.last == "chunked" else { return 400 }
        if codings.dropLast().contains("chunked") { return 400 }
        return codings.count > 1 ? 501 : nil
    }
}
