import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's device endpoints on the embedded server, for each kind: list, rename, delete, reset, and
/// another user's devices refused. Devices are put on the profile as their nodes would.
struct DevicesRESTTests {
    static func harness() throws -> (Harness, token: String) {
        let h = Harness()
        _ = try h.am.users.add(username: "ada", password: "Ch4ng3it!", attributes: [:])
        _ = h.am.users.update(username: "demo") { user in
            let record = DeviceRecord(uuid: "d1", deviceName: "Phone", createdDate: 1000)
            user.devices.oath = [OathDeviceProfile(record: record, sharedSecret: Array(repeating: 7, count: 20))]
            user.devices.push = [
                PushDeviceProfile(
                    record: record, sharedSecret: "c2VjcmV0", issuer: "ForgeRock", mechanismUid: "m1", deviceId: "t1",
                    communicationId: "c1", communicationType: "gcm", deviceType: "android")
            ]
            let key = P256.PrivateKey(generatingWith: SeededRandomSource(seed: 1)).publicKey
            user.devices.webAuthn = [
                WebAuthnDeviceProfile(
                    record: record, credentialId: "Y3JlZA", key: .ec2P256(x: key.xBytes, y: key.yBytes), signCount: 0)
            ]
            user.devices.binding = [
                BoundDeviceProfile(record: record, deviceId: "dev", key: ["kty": "EC", "kid": "d1"])
            ]
        }
        return (h, try #require(h.ssoToken()))
    }

    static func call(
        _ h: Harness, _ token: String?, _ kind: String, _ operation: DevicesRequest.Operation, user: String = "demo"
    ) -> ServerReply {
        h.am.devices(DevicesRequest(ssoToken: token, user: user, kind: kind, operation: operation))
    }

    @Test(arguments: DeviceKind.allCases) func aUserListsRenamesAndDeletesTheirDevices(kind: DeviceKind) throws {
        let (h, token) = try Self.harness()
        let list = Self.call(h, token, kind.rawValue, .query)
        #expect(list.status == 200)
        #expect(list.body["resultCount"] == 1)
        #expect(list.body["pagedResultsCookie"] == .null)
        #expect(list.body["totalPagedResultsPolicy"] == "NONE")
        #expect(list.body["totalPagedResults"] == -1 && list.body["remainingPagedResults"] == -1)
        let device = try #require(list.body["result"]?[0])
        #expect(device["_id"] == "d1" && device["uuid"] == "d1" && device["deviceName"] == "Phone")
        #expect(device["createdDate"] == 1_000_000)
        let renamed = Self.call(h, token, kind.rawValue, .rename(uuid: "d1", deviceName: "Work phone"))
        #expect(renamed.status == 200 && renamed.body["deviceName"] == "Work phone")
        #expect(Self.call(h, token, kind.rawValue, .query).body["result"]?[0]?["deviceName"] == "Work phone")
        #expect(Self.call(h, token, kind.rawValue, .rename(uuid: "nope", deviceName: "x")).status == 404)
        #expect(Self.call(h, token, kind.rawValue, .delete(uuid: "nope")).status == 404)
        let deleted = Self.call(h, token, kind.rawValue, .delete(uuid: "d1"))
        #expect(deleted.status == 200 && deleted.body["uuid"] == "d1")
        #expect(Self.call(h, token, kind.rawValue, .query).body["resultCount"] == 0)
    }

    @Test(arguments: DeviceKind.allCases) func anotherUsersDevicesAreRefused(kind: DeviceKind) throws {
        let (h, _) = try Self.harness()
        let ada = try #require(h.ssoToken(username: "ada"))
        for operation: DevicesRequest.Operation in [.query, .rename(uuid: "d1", deviceName: "x"), .delete(uuid: "d1")] {
            let reply = Self.call(h, ada, kind.rawValue, operation)
            #expect(reply.status == 403)
            #expect(reply.body["reason"] == "Forbidden")
        }
        #expect(h.am.users.find(username: "demo")?.devices.restJSON(kind).first?["deviceName"] == "Phone")
    }

    @Test func noSessionAnUnknownKindAndTheUsersIdAreAnsweredAsAM() throws {
        let (h, token) = try Self.harness()
        #expect(Self.call(h, nil, "oath", .query).body == AMErrors.accessDenied)
        #expect(Self.call(h, "not-a-session", "oath", .query).status == 401)
        #expect(Self.call(h, token, "sms", .query).status == 404)
        let id = try #require(h.am.users.find(username: "demo")?.id)
        #expect(Self.call(h, token, "binding", .query, user: id).body["resultCount"] == 1, "by _id, as Identity Cloud")
        #expect(Self.call(h, token, "binding", .query).body["result"]?[0]?["deviceId"] == "dev")
    }

    @Test func resetDeletesEveryOathOrPushDeviceAndIsNotOfferedForTheOthers() throws {
        let (h, token) = try Self.harness()
        #expect(Self.call(h, token, "oath", .reset).body == ["result": true])
        #expect(Self.call(h, token, "push", .reset).body == ["result": true])
        let devices = try #require(h.am.users.find(username: "demo")?.devices)
        #expect(devices.oath.isEmpty && devices.push.isEmpty && devices.binding.count == 1)
        #expect(Self.call(h, token, "binding", .reset).status == 501)
        #expect(Self.call(h, token, "webauthn", .reset).status == 501)
    }
}
