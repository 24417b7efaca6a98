import AuthBridgeCore
import Foundation
import IdentityServer

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One HTTP exchange at a time over URLSession, made synchronous with a semaphore: the
/// `IdentityServer` seam is synchronous (the Host runs one transaction at a time). Redirects are
/// never followed (authorize's 302 carries the code in its `Location`), cookies are kept here,
/// not in a shared store, and every failure to get an HTTP answer becomes a `TransportError`
/// naming the server and what went wrong.
final class RemoteTransport: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    let timeout: Double
    let hostName: String
    private var session: URLSession!

    init(timeout: Double, hostName: String) {
        self.timeout = timeout
        self.hostName = hostName
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        // The jar is RemoteAM's: the SSO cookie is whatever the SDK layer passes in.
        configuration.httpShouldSetCookies = false
        configuration.httpCookieStorage = nil
        configuration.urlCache = nil
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    func send(_ request: URLRequest) throws(TransportError) -> Response {
        final class Box: @unchecked Sendable {
            var outcome: Result<Response, TransportError>?
        }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        var request = request
        request.timeoutInterval = timeout
        let what = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
        let task = session.dataTask(with: request) { [hostName, timeout] data, response, error in
            if let error {
                box.outcome = .failure(Self.describe(error, host: hostName, timeout: timeout, what: what))
            } else if let http = response as? HTTPURLResponse {
                var headers: [String: String] = [:]
                for (name, value) in http.allHeaderFields {
                    if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
                }
                box.outcome = .success(Response(status: http.statusCode, headers: headers, body: data.map { Array($0) } ?? []))
            } else {
                box.outcome = .failure(TransportError("\(hostName) answered \(what) with something that is not HTTP"))
            }
            done.signal()
        }
        task.resume()
        // URLSession enforces the timeout; this backstop only guards against a stuck task.
        if done.wait(timeout: .now() + timeout + 5) == .timedOut {
            task.cancel()
            return try Self.timedOut(host: hostName, timeout: timeout, what: what)
        }
        switch box.outcome {
        case .success(let response)?: return response
        case .failure(let error)?: throw error
        case nil: throw TransportError("\(hostName): \(what) ended without an answer")
        }
    }

    private static func timedOut(host: String, timeout: Double, what: String) throws(TransportError) -> Response {
        throw TransportError("the identity server \(host) did not answer \(what) within \(formatted(timeout)) s (timeout)")
    }

    static func describe(_ error: Error, host: String, timeout: Double, what: String) -> TransportError {
        guard let urlError = error as? URLError else {
            return TransportError("\(what) to \(host) failed: \(error.localizedDescription)")
        }
        switch urlError.code {
        case .timedOut:
            return TransportError("the identity server \(host) did not answer \(what) within \(formatted(timeout)) s (timeout)")
        case .cannotConnectToHost, .networkConnectionLost, .notConnectedToInternet:
            return TransportError("cannot reach the identity server \(host) (\(what)): the connection was refused or lost")
        case .cannotFindHost, .dnsLookupFailed:
            return TransportError("cannot resolve the identity server's host name \(host)")
        case .serverCertificateUntrusted, .serverCertificateHasUnknownRoot, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .secureConnectionFailed, .clientCertificateRejected:
            return TransportError(
                "TLS with \(host) failed: its certificate is not trusted (\(urlError.code.rawValue)); "
                    + "for a local AM with a self-signed certificate, start with --insecure")
        default:
            return TransportError("\(what) to \(host) failed: \(urlError.localizedDescription) (URLError \(urlError.code.rawValue))")
        }
    }

    private static func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }

    // Authorize answers with a 302 whose Location holds the code: the answer itself is wanted.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}
