import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's Device Profile Save node and the `devices/profile` endpoint: a collected profile is kept
/// on the user (replaced by identifier, aliased, capped), then listed, renamed and deleted.
struct DeviceProfileSaveTests {
    typealias Node = (id: String, type: String, connections: JSONObject, config: JSONObject)

    static func harness(_ save: JSONObject) throws -> Harness {
        try AMMoreNodesTests.harness([
            ("n", "DeviceProfileCollectorNode", ["outcome": "s"], ["deviceMetadata": true, "deviceLocation": true]),
            ("s", "DeviceSaveNode", ["outcome": AMMoreNodesTests.success], save),
        ])
    }

    static func profile(_ identifier: String, name: String = "Ada's iPhone") -> String {
        JSONWriter().string([
            "identifier": .string(identifier),
            "metadata": ["platform": ["deviceName": .string(name), "platform": "iOS"]],
            "location": ["latitude": 51.5, "longitude": -0.12],
        ])
    }

    /// Runs "T" as demo with the device sending `profile`; the reply of the last step.
    static func collect(_ h: Harness, _ profile: String) -> ServerReply {
        let step = AMMoreNodesTests.begin(h)
        return h.submit(step.body, ["IDToken1": .string(profile)])
    }

    static func list(_ h: Harness, _ token: String) -> [JSONValue] {
        h.am.devices(DevicesRequest(ssoToken: token, user: "demo", kind: "profile", operation: .query))
            .body["result"]?.arrayValue ?? []
    }

    @Test func theCollectedProfileIsSavedWithItsAliasAndListed() throws {
        let h = try Self.harness([:])
        #expect(Self.collect(h, Self.profile("phone-1")).body["tokenId"] != nil)
        let token = try #require(h.ssoToken())
        let saved = Self.list(h, token)
        #expect(saved.count == 1)
        #expect(saved[0]["identifier"] == "phone-1" && saved[0]["alias"] == "Ada's iPhone")
        #expect(saved[0]["location"]?["latitude"] == 51.5)
        #expect(saved[0]["metadata"]?["platform"]?["platform"] == "iOS")
        #expect(saved[0]["lastSelectedDate"]?.intValue == Int64(h.clock.now * 1000))
        #expect(saved[0]["_id"]?.stringValue?.isEmpty == false)
    }

    @Test func theSameIdentifierReplacesItsProfileAndKeepsItsIdAndAlias() throws {
        let h = try Self.harness([:])
        _ = Self.collect(h, Self.profile("phone-1"))
        let token = try #require(h.ssoToken())
        let first = Self.list(h, token)[0]
        let id = try #require(first["_id"]?.stringValue)
        _ = h.am.devices(
            DevicesRequest(
                ssoToken: token, user: "demo", kind: "profile", operation: .rename(uuid: id, deviceName: "Mine")))
        h.clock.advance(by: 60)
        _ = Self.collect(h, Self.profile("phone-1", name: "Renamed by the OS"))
        let again = Self.list(h, token)
        #expect(again.count == 1)
        #expect(again[0]["_id"] == .string(id) && again[0]["alias"] == "Mine")
        #expect(again[0]["lastSelectedDate"]?.intValue == (first["lastSelectedDate"]?.intValue ?? 0) + 60_000)
    }

    @Test func pastTheMaximumTheLeastRecentlySelectedGo() throws {
        let h = try Self.harness(["maxSavedProfiles": "2", "saveDeviceLocation": false])
        for identifier in ["a", "b", "c"] {
            _ = Self.collect(h, Self.profile(identifier))
            h.clock.advance(by: 1)
        }
        let token = try #require(h.ssoToken())
        let saved = Self.list(h, token)
        #expect(saved.map { $0["identifier"]?.stringValue } == ["b", "c"])
        #expect(saved.allSatisfy { $0["location"] == nil })
    }

    @Test func theAliasComesFromTheConfiguredSharedStateVariable() throws {
        let h = try Self.harness(["variableName": "username"])
        _ = Self.collect(h, Self.profile("phone-1"))
        #expect(Self.list(h, try #require(h.ssoToken()))[0]["alias"] == "demo")
    }

    @Test func aBadMaximumIsASettingsError() {
        #expect(throws: (any Error).self) { try Self.harness(["maxSavedProfiles": "0"]) }
    }

    @Test func theProfileEndpointRenamesByAliasDeletesAndRefusesReset() throws {
        let h = try Self.harness([:])
        _ = Self.collect(h, Self.profile("phone-1"))
        let token = try #require(h.ssoToken())
        let id = try #require(Self.list(h, token)[0]["_id"]?.stringValue)
        func call(_ operation: DevicesRequest.Operation) -> ServerReply {
            h.am.devices(DevicesRequest(ssoToken: token, user: "demo", kind: "profile", operation: operation))
        }
        #expect(call(.rename(uuid: id, deviceName: "Work")).body["alias"] == "Work")
        #expect(call(.rename(uuid: "nope", deviceName: "x")).status == 404)
        #expect(call(.reset).status == 501)
        #expect(call(.delete(uuid: id)).body["identifier"] == "phone-1")
        #expect(call(.delete(uuid: id)).status == 404)
        #expect(Self.list(h, token).isEmpty)
        #expect(
            h.am.devices(DevicesRequest(ssoToken: nil, user: "demo", kind: "profile", operation: .query)).status == 401)
    }

    @Test func profilesSurviveSavedState() throws {
        let h = try Self.harness([:])
        _ = Self.collect(h, Self.profile("phone-1"))
        var devices = try #require(h.am.users.find(username: "demo")).devices
        let saved = devices.stateJSON
        devices = try UserDevices(state: StateReader(.object(saved), path: "devices"))
        #expect(devices.profiles == h.am.users.find(username: "demo")?.devices.profiles)
    }
}
