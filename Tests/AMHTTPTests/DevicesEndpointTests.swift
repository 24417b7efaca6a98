import AuthBridgeCore
import HTTPServer
import IdentityServer
import Testing

@testable import AMHTTP

/// AM's device endpoints over HTTP: each verb and path becomes one `devices` call with the
/// caller's SSO token; what AM refuses before the server is asked is refused here.
@Suite struct DevicesEndpoint {
    static let base = Exchange.json + "/users/demo/devices/2fa"

    @Test func listRenameDeleteAndResetReachTheServer() {
        let exchange = Exchange()
        let cookie = ("Cookie", "iPlanetDirectoryPro=sso1")
        let list = exchange.send("GET", Self.base + "/binding?_queryFilter=true", headers: [cookie])
        #expect(list.status == 200)
        #expect(list.header("Content-API-Version") == "resource=1.0")
        _ = exchange.send(
            "PUT", Self.base + "/oath/d%201", headers: [("iPlanetDirectoryPro", "sso2")],
            body: #"{"deviceName":"Work"}"#)
        _ = exchange.send("DELETE", Self.base + "/webauthn/d2", headers: [cookie])
        _ = exchange.send("POST", Self.base + "/push?_action=reset", headers: [cookie])
        _ = exchange.send("GET", Exchange.json + "/users/ada%40example.com/devices/2fa/oath?_queryFilter=true")
        #expect(
            exchange.server.calls == [
                .devices(.init(ssoToken: "sso1", user: "demo", kind: "binding", operation: .query)),
                .devices(
                    .init(
                        ssoToken: "sso2", user: "demo", kind: "oath",
                        operation: .rename(uuid: "d 1", deviceName: "Work"))),
                .devices(.init(ssoToken: "sso1", user: "demo", kind: "webauthn", operation: .delete(uuid: "d2"))),
                .devices(.init(ssoToken: "sso1", user: "demo", kind: "push", operation: .reset)),
                .devices(.init(ssoToken: nil, user: "ada@example.com", kind: "oath", operation: .query)),
            ])
    }

    @Test func badRequestsAreRefusedWithoutReachingTheServer() {
        let exchange = Exchange()
        #expect(exchange.send("GET", Self.base + "/oath").status == 400, "no _queryFilter")
        #expect(exchange.send("GET", Self.base + "/oath?_queryFilter=deviceName+eq+%22x%22").status == 400)
        #expect(exchange.send("PUT", Self.base + "/oath/d1", body: "[]").status == 400)
        #expect(exchange.send("PUT", Self.base + "/oath/d1", body: #"{"name":"x"}"#).status == 400)
        #expect(exchange.send("POST", Self.base + "/oath").status == 400, "no _action")
        #expect(exchange.send("POST", Self.base + "/oath?_action=skip").status == 501)
        #expect(exchange.send("DELETE", Self.base + "/oath").status == 405)
        #expect(exchange.send("GET", Self.base + "/oath/d1").status == 405)
        #expect(exchange.send("GET", Exchange.json + "/users/demo/devices/2fa").status == 404)
        #expect(exchange.server.calls.isEmpty)
    }

    /// The Device Profile Save node's profiles sit beside the 2FA kinds, at `devices/profile`,
    /// and are renamed by their `alias`.
    @Test func profilesAreTheirOwnCollectionRenamedByAlias() {
        let exchange = Exchange()
        let cookie = ("Cookie", "iPlanetDirectoryPro=sso1")
        let profiles = Exchange.json + "/users/demo/devices/profile"
        #expect(exchange.send("GET", profiles + "?_queryFilter=true", headers: [cookie]).status == 200)
        _ = exchange.send("PUT", profiles + "/p1", headers: [cookie], body: #"{"alias":"Work","identifier":"i"}"#)
        _ = exchange.send("DELETE", profiles + "/p1", headers: [cookie])
        #expect(exchange.send("PUT", profiles + "/p1", body: #"{"deviceName":"Work"}"#).status == 400)
        #expect(exchange.send("GET", Self.base + "/profile?_queryFilter=true").status == 404)
        #expect(
            exchange.server.calls == [
                .devices(.init(ssoToken: "sso1", user: "demo", kind: "profile", operation: .query)),
                .devices(
                    .init(
                        ssoToken: "sso1", user: "demo", kind: "profile",
                        operation: .rename(uuid: "p1", deviceName: "Work"))),
                .devices(.init(ssoToken: "sso1", user: "demo", kind: "profile", operation: .delete(uuid: "p1"))),
            ])
    }

    /// Where a kind's devices live and which member names them, for every `IdentityServer` (the
    /// remote one builds its paths and rename bodies from these).
    @Test func aProfileIsNotUnderTwoFactorAndIsNamedByItsAlias() {
        let profile = DevicesRequest(ssoToken: nil, user: "demo", kind: DevicesRequest.profileKind, operation: .query)
        #expect(profile.collectionPath == "devices/profile" && profile.nameMember == "alias")
        let oath = DevicesRequest(ssoToken: nil, user: "demo", kind: "oath", operation: .query)
        #expect(oath.collectionPath == "devices/2fa/oath" && oath.nameMember == "deviceName")
    }
}
