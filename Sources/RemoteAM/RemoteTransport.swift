import CCurl
import IdentityServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One HTTP exchange at a time over the system's libcurl, synchronous as the `IdentityServer` seam
/// is (the Host runs one transaction at a time). libcurl directly, not URLSession: on Linux
/// URLSession (swift-corelibs-foundation over the same libcurl) pins the CA bundle to the system
/// store and offers no server-trust challenge, so `--ca-file` and `--insecure` could not be
/// honoured through it. Redirects are never followed (authorize's 302 carries the code in its
/// `Location`); cookies are RemoteAM's; every failure to get an HTTP answer becomes a
/// `TransportError` naming the server and what went wrong.
final class RemoteTransport {
    struct Response {
        var status: Int
        /// Lower-cased names; a repeated header (Set-Cookie) keeps every value in order.
        var headers: [String: [String]]
        var body: [UInt8]
    }

    /// How the server's certificate is checked.
    enum Trust: Equatable {
        case system
        case caFile(String)
        case insecure
    }

    /// Seconds the whole exchange may take, from the first byte sent to the reply's last.
    let timeout: Double
    /// Bytes a reply (its header lines and body) may hold; a larger one ends its transfer there.
    let maxReplyBytes: Int
    let trust: Trust
    private let handle: UnsafeMutableRawPointer

    struct Unavailable: Error {
        let message: String
    }

    init(timeout: Double, maxReplyBytes: Int, trust: Trust) throws(Unavailable) {
        if let problem = ab_curl_load() { throw Unavailable(message: String(cString: problem)) }
        guard let handle = ab_curl_new() else { throw Unavailable(message: "libcurl could not make a transfer handle") }
        self.timeout = timeout
        self.maxReplyBytes = maxReplyBytes
        self.trust = trust
        self.handle = handle
    }

    deinit { ab_curl_free(handle) }

    func send(
        _ method: String, url: String, headers: [(String, String)], body: [UInt8]?
    ) throws(TransportError) -> Response {
        let what = "\(method) \(Self.path(of: url))"
        var answer = ab_curl_response()
        let lines = headers.map { "\($0.0): \($0.1)" }
        let caFile: String? = if case .caFile(let path) = trust { path } else { nil }
        withCStrings(lines) { headerPointers in
            method.withCString { methodPointer in
                url.withCString { urlPointer in
                    withOptionalCString(caFile) { caPointer in
                        let bytes = body ?? []
                        bytes.withUnsafeBufferPointer { bodyPointer in
                            headerPointers.withUnsafeBufferPointer { headerList in
                                var request = ab_curl_request(
                                    method: methodPointer, url: urlPointer, headers: headerList.baseAddress,
                                    header_count: headerList.count,
                                    body: body == nil ? nil : (bodyPointer.baseAddress ?? UnsafePointer(bitPattern: 1)),
                                    body_length: bytes.count, timeout_ms: Int(timeout * 1000),
                                    max_reply_bytes: maxReplyBytes,
                                    verify: trust == .insecure ? 0 : 1, ca_file: caPointer)
                                ab_curl_perform(handle, &request, &answer)
                            }
                        }
                    }
                }
            }
        }
        defer { ab_curl_response_free(&answer) }
        guard answer.too_large == 0 else {
            throw TransportError(
                "the reply of the identity server \(Self.authority(of: url)) to \(what) exceeded \(maxReplyBytes) bytes and was dropped "
                    + "(--max-reply-bytes N raises the limit)")
        }
        guard answer.code == 0 else {
            let detail = withUnsafeBytes(of: answer.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw describe(code: answer.code, detail: detail, what: what, hostName: Self.authority(of: url))
        }
        let body = answer.body.map { Array(UnsafeBufferPointer(start: $0, count: answer.body_length)) } ?? []
        let raw = answer.headers.map { Array(UnsafeBufferPointer(start: $0, count: answer.headers_length)) } ?? []
        return Response(status: answer.status, headers: Self.lastHeaders(raw), body: body)
    }

    /// libcurl hands over every response's header lines (a `100 Continue` first, say): the last
    /// status line starts the block that belongs to the answer.
    static func lastHeaders(_ raw: [UInt8]) -> [String: [String]] {
        var headers: [String: [String]] = [:]
        for line in String(decoding: raw, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("HTTP/") {
                headers = [:]
            } else if let colon = line.firstIndex(of: ":") {
                let value = line[line.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
                headers[line[..<colon].lowercased(), default: []].append(String(value))
            }
        }
        return headers
    }

    private func describe(code: Int32, detail: String, what: String, hostName: String) -> TransportError {
        switch Int(code) {
        case AB_CURLE_OPERATION_TIMEDOUT:
            return TransportError(
                "the identity server \(hostName) did not answer \(what) within \(Self.formatted(timeout)) s (timeout)")
        case AB_CURLE_COULDNT_CONNECT, AB_CURLE_GOT_NOTHING, AB_CURLE_SEND_ERROR, AB_CURLE_RECV_ERROR:
            return TransportError(
                "cannot reach the identity server \(hostName) (\(what)): the connection was refused or lost")
        case AB_CURLE_COULDNT_RESOLVE_HOST:
            return TransportError("cannot resolve the identity server's host name \(hostName)")
        case AB_CURLE_PEER_FAILED_VERIFICATION, AB_CURLE_SSL_CONNECT_ERROR:
            let trusted = if case .caFile(let path) = trust { "the CA in \(path)" } else { "the system trust store" }
            return TransportError(
                "TLS with \(hostName) refused (\(what)): \(detail); its certificate is not trusted by \(trusted). "
                    + "For an AM with its own CA, start with --ca-file CA.pem; for a local AM with a self-signed certificate, --insecure"
            )
        case AB_CURLE_SSL_CACERT_BADFILE:
            return TransportError(
                "TLS with \(hostName) failed: the --ca-file could not be read as PEM certificates (\(detail))")
        default:
            return TransportError(
                "\(what) to \(hostName) failed: \(detail.isEmpty ? "no answer" : detail) (libcurl error \(code))")
        }
    }

    /// `host[:port]`, what messages name a server by (the endpoints of a discovery document may be
    /// on another host than the journey's).
    static func authority(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        return authority.split(separator: "@", omittingEmptySubsequences: false).last.map(String.init) ?? ""
    }

    /// The path alone, for messages and logs: the query carries codes and tokens.
    static func path(of url: String) -> String {
        let afterScheme = url.firstRange(of: "://").map { url[$0.upperBound...] } ?? url[...]
        let path = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        return String(path.prefix { $0 != "?" && $0 != "#" })
    }

    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// C strings for a list of Swift strings, alive for the duration of `body`.
private func withCStrings<Result>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> Result) -> Result {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    return body(copies.map { UnsafePointer($0) })
}

private func withOptionalCString<Result>(_ string: String?, _ body: (UnsafePointer<CChar>?) -> Result) -> Result {
    guard let string else { return body(nil) }
    return string.withCString(body)
}
