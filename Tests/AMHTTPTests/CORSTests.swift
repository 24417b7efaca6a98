import HTTPServer
import Testing

@testable import AMHTTP

/// AM's CORS service as the SDK docs configure it: request in, Access-Control-* headers out.
@Suite struct CORSRules {
    let cors = CORS(
        origins: ["HTTP://LocalHost:80", "https://app.example.com:443", "http://localhost:3000"],
        cookieName: "iPlanetDirectoryPro")

    func request(_ method: String, origin: String?, asking headers: String? = nil) -> HTTPRequest {
        var fields: [HTTPRequest.Header] = []
        if let origin { fields.append(.init("Origin", origin)) }
        if method == "OPTIONS" { fields.append(.init("Access-Control-Request-Method", "POST")) }
        if let headers { fields.append(.init("Access-Control-Request-Headers", headers)) }
        return HTTPRequest(
            method: method, target: "/am/json/realms/root/realms/alpha/authenticate", headers: fields, body: [])
    }

    @Test func configuredOriginsAreNormalisedAsBrowsersSendThem() {
        #expect(CORS.normalized("HTTP://LocalHost:80") == "http://localhost")
        #expect(CORS.normalized("https://App.Example.com:443") == "https://app.example.com")
        #expect(CORS.normalized("http://localhost:8080") == "http://localhost:8080")
        #expect(CORS.normalized("https://[::1]:443") == "https://[::1]")
        #expect(CORS.normalized("http://localhost:443") == "http://localhost:443")
        #expect(CORS.normalized("ftp://x") == nil)
        #expect(CORS.normalized("http://x/path") == nil)
        #expect(cors.allows("http://localhost"))
        #expect(cors.allows("https://app.example.com"))
        #expect(cors.allows("http://localhost:3000"))
        #expect(!cors.allows("http://localhost:3001"))
        #expect(!cors.allows("https://localhost"))
    }

    @Test func aPreflightGetsOnlyTheHeadersAMAccepts() {
        let ok = cors.preflight(
            request(
                "OPTIONS", origin: "http://localhost:3000", asking: "Accept-API-Version, content-type,X-Requested-With")
        )
        #expect(ok.status == 204)
        #expect(ok.header("Access-Control-Allow-Headers") == "accept-api-version,content-type,x-requested-with")
        #expect(ok.header("Access-Control-Allow-Origin") == "http://localhost:3000")
        let cookie = cors.preflight(
            request("OPTIONS", origin: "http://localhost:3000", asking: "iplanetdirectorypro,authorization"))
        #expect(cookie.status == 204)
        let refused = cors.preflight(
            request("OPTIONS", origin: "http://localhost:3000", asking: "content-type,x-custom-header"))
        #expect(refused.status == 403)
        #expect(refused.header("Access-Control-Allow-Origin") == nil)
        #expect(String(decoding: refused.body, as: UTF8.self).hasPrefix("CORS: header x-custom-header is not accepted"))
    }

    @Test func responsesToAnAllowedOriginExposeWWWAuthenticate() {
        let response = cors.decorate(
            HTTPResponse(status: 401, headers: [.init("WWW-Authenticate", "Bearer")]),
            for: request("GET", origin: "http://localhost"))
        #expect(response.header("Access-Control-Expose-Headers") == "WWW-Authenticate")
        let other = cors.decorate(HTTPResponse(status: 401), for: request("GET", origin: "http://evil.example"))
        #expect(other.header("Access-Control-Expose-Headers") == nil)
    }
}
