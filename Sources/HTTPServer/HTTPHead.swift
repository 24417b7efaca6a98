/// The request line and header fields of one request (RFC 9112 §3, §5), and how its body is
/// framed (§6). Strict where leniency lets two parsers disagree about where a request ends
/// (both `Content-Length` and `Transfer-Encoding`, folded lines, space before a colon): such a
/// request is refused rather than guessed at.
struct HTTPHead {
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
    }

    var request: HTTPRequest
    var framing: Framing
    var expectsContinue: Bool

    typealias Failure = HTTPRequestDecoder.Failure

    static func parse(_ head: ArraySlice<UInt8>, limits: HTTPRequestDecoder.Limits) -> Result<HTTPHead, Failure> {
        var lines = head.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            line.last == 0x0D ? line.dropLast() : line
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { return .failure(Failure(status: 400, "empty request")) }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3 else { return .failure(Failure(status: 400, "malformed request line")) }
        guard !parts[0].isEmpty, parts[0].allSatisfy(isTokenByte) else {
            return .failure(Failure(status: 400, "malformed request method"))
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.count == 8, version.hasPrefix("HTTP/"), version.dropFirst(6).first == ".",
            let major = version.dropFirst(5).first?.wholeNumberValue, let minor = version.last?.wholeNumberValue
        else { return .failure(Failure(status: 400, "malformed HTTP version")) }
        guard major == 1 else { return .failure(Failure(status: 505, "only HTTP/1.0 and HTTP/1.1 are served")) }
        guard let target = originForm(parts[1]) else {
            return .failure(Failure(status: 400, "malformed request target"))
        }

        var headers: [HTTPRequest.Header] = []
        for line in lines.dropFirst() {
            guard headers.count < limits.maxHeaderCount else {
                return .failure(Failure(status: 431, "more than \(limits.maxHeaderCount) header fields"))
            }
            guard let header = fieldLine(line) else { return .failure(Failure(status: 400, "malformed header field")) }
            headers.append(header)
        }
        let request = HTTPRequest(
            method: String(decoding: parts[0], as: UTF8.self), target: target, minorVersion: minor, headers: headers)
        let hosts = request.headers(named: "Host")
        if minor >= 1, hosts.count != 1 {
            return .failure(Failure(status: 400, "an HTTP/1.1 request needs exactly one Host header"))
        }
        return framing(of: request, limits: limits).map { framing in
            let expect = request.header("Expect")?.lowercased() == "100-continue" && minor >= 1 && framing != .none
            return HTTPHead(request: request, framing: framing, expectsContinue: expect)
        }
    }

    /// RFC 9112 §6.1–6.3 for a request: `Transfer-Encoding` (a list whose last coding must be
    /// `chunked`, the only one served) or `Content-Length` (`1*DIGIT`; repeated only as the same
    /// decimal value, in more fields or as a list, RFC 9110 §8.6), never both; neither is no body.
    /// An empty or malformed value is refused, never read as absent.
    private static func framing(of request: HTTPRequest, limits: HTTPRequestDecoder.Limits) -> Result<Framing, Failure>
    {
        let encodings = request.headers(named: "Transfer-Encoding")
        let lengths = request.headers(named: "Content-Length")
        if !encodings.isEmpty {
            guard lengths.isEmpty else {
                return .failure(Failure(status: 400, "both Content-Length and Transfer-Encoding"))
            }
            guard request.minorVersion >= 1 else {
                return .failure(Failure(status: 400, "Transfer-Encoding in an HTTP/1.0 request"))
            }
            // A list's empty elements are ignored (RFC 9110 §5.6.1.2).
            let codings = encodings.flatMap { $0.split(separator: ",") }.map {
                $0.trimmingCharacters(in: " \t").lowercased()
            }
            .filter { !$0.isEmpty }
            guard codings.last == "chunked" else {
                return .failure(Failure(status: 400, "Transfer-Encoding without chunked as its final coding"))
            }
            let earlier = codings.dropLast()
            if earlier.contains("chunked") {
                return .failure(Failure(status: 400, "Transfer-Encoding chunked applied twice"))
            }
            if let other = earlier.first {
                return .failure(Failure(status: 501, "Transfer-Encoding \(other) is not supported"))
            }
            return .success(.chunked)
        }
        guard !lengths.isEmpty else { return .success(.none) }
        // The value without leading zeros, so that `42, 042` is one value and any length compares.
        var digits: Substring?
        for element in lengths.flatMap({ $0.split(separator: ",", omittingEmptySubsequences: false) }) {
            let text = element.trimmingCharacters(in: " \t")
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return .failure(Failure(status: 400, "invalid Content-Length"))
            }
            let value = text.drop { $0 == "0" }
            guard digits == nil || digits == value else {
                return .failure(Failure(status: 400, "conflicting Content-Length values"))
            }
            digits = value
        }
        guard let digits, digits.count <= 18, let length = Int(digits.isEmpty ? "0" : digits),
            length <= limits.maxBodyBytes
        else {
            return .failure(Failure(status: 413, "the body is longer than \(limits.maxBodyBytes) bytes"))
        }
        return .success(length == 0 ? .none : .length(length))
    }

    /// `field-name ":" OWS field-value OWS` (RFC 9112 §5), for headers and trailers: the name a
    /// token right against the colon, the value without control characters but HTAB.
    static func fieldLine(_ line: ArraySlice<UInt8>) -> HTTPRequest.Header? {
        guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
            line[line.startIndex..<colon].allSatisfy(isTokenByte)
        else { return nil }
        let value = line[(colon + 1)...].drop(while: isSpace).reversed().drop(while: isSpace).reversed()
        guard value.allSatisfy({ $0 == 0x09 || ($0 >= 0x20 && $0 != 0x7F) }) else { return nil }
        return .init(
            String(decoding: line[line.startIndex..<colon], as: UTF8.self), String(decoding: value, as: UTF8.self))
    }

    /// `/path?query` as sent, `*`, or an absolute-form target reduced to its path and query.
    private static func originForm(_ bytes: ArraySlice<UInt8>) -> String? {
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 > 0x20 && $0 != 0x7F }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("/") || text == "*" { return text }
        for scheme in ["http://", "https://"] where text.lowercased().hasPrefix(scheme) {
            let rest = text.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return "/" }
            let tail = String(rest[slash...])
            return tail.hasPrefix("/") ? tail : "/" + tail
        }
        return nil
    }

    /// RFC 9110 `tchar`: what a method or a field name may be made of.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
