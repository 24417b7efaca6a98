import AdminHTTP
import AuthBridgeCore
import HTTPServer
import Host
import TestSupport
import Testing

/// The admin API's gatekeeping, request in and response out: only loopback peers, only allowed
/// origins, and only on a loopback listener.
@Suite struct AdminAPITests {
    static func respond(_ request: HTTPRequest, corsOrigins: [String] = []) throws -> HTTPResponse {
        let app = try ModuleHarness(configuration: HostConfiguration())
        return app.perform { world in AdminAPI(corsOrigins: corsOrigins).respond(request, world: world) }
    }

    static func get(_ path: String, peer: String?, origin: String? = nil) -> HTTPRequest {
        var request = HTTPRequest(method: "GET", target: path, headers: origin.map { [.init("Origin", $0)] } ?? [])
        request.peer = peer
        return request
    }

    static func error(_ response: HTTPResponse) throws -> JSONValue? {
        try JSONParser.parse(response.body)["error"]
    }

    @Test func aLoopbackPeerIsAnswered() throws {
        let response = try Self.respond(Self.get("/emulator/v1/users", peer: "127.0.0.1"))
        #expect(response.status == 200)
    }

    @Test(arguments: ["10.0.0.5", "192.168.1.20", nil] as [String?])
    func anyOtherPeerIsRefused(peer: String?) throws {
        let response = try Self.respond(Self.get("/emulator/v1/users", peer: peer))
        #expect(response.status == 403)
        #expect(try Self.error(response)?["message"] == "the admin API answers loopback clients only")
    }

    @Test(arguments: ["127.0.0.1:8080", "localhost:8080", "LOCALHOST", "127.0.0.1"])
    func aLoopbackNameInHostIsAnswered(host: String) throws {
        var request = Self.get("/emulator/v1/users", peer: "127.0.0.1")
        request.headers.append(.init("Host", host))
        #expect(try Self.respond(request).status == 200)
    }

    /// DNS rebinding: a page at attacker.example whose name now resolves to 127.0.0.1 calls the
    /// listener from a loopback peer, same-origin to itself (no `Origin` on a GET), with its own
    /// name in `Host`.
    @Test(arguments: ["attacker.example:8080", "attacker.example", "127.0.0.1.attacker.example"])
    func anotherNameInHostIsRefused(host: String) throws {
        var request = Self.get("/emulator/v1/users", peer: "127.0.0.1")
        request.headers.append(.init("Host", host))
        let response = try Self.respond(request)
        #expect(response.status == 403)
        #expect(try Self.error(response)?["message"] == "the admin API answers loopback clients only")
    }

    @Test func aCrossOriginCallNeedsItsOriginAllowed() throws {
        let request = Self.get("/emulator/v1/users", peer: "127.0.0.1", origin: "http://localhost:3000")
        #expect(try Self.respond(request).status == 403)
        let allowed = try Self.respond(request, corsOrigins: ["http://localhost:3000"])
        #expect(allowed.status == 200)
        #expect(allowed.header("Access-Control-Allow-Origin") == "http://localhost:3000")
    }

    @Test(
        arguments: [
            ("http://127.0.0.1:8080", true), ("http://127.1.2.3:80", true), ("http://0.0.0.0:8080", false),
            ("http://10.0.0.5:8080", false), (nil, false),
        ] as [(String?, Bool)])
    func servedOnlyOnALoopbackListener(origin: String?, served: Bool) {
        #expect(AdminAPI.served(atOrigin: origin) == served)
    }
}
