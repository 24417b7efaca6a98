import AuthBridgeCore
import Testing

@testable import EmbeddedAM

@Suite struct PushDeviceProfileState {
    @Test func aPushDeviceIsSavedWithItsSecretAndShownWithout() throws {
        let device = PushDeviceProfile(
            record: DeviceRecord(uuid: "d-1", deviceName: "Push Device", createdDate: 10, lastAccessDate: 20),
            sharedSecret: Base64.encode([UInt8](repeating: 4, count: 32)), issuer: "ForgeRock", mechanismUid: "m-1",
            deviceId: "tok", communicationId: "arn", communicationType: "gcm", deviceType: "android",
            recoveryCodeDigests: ["a1", "b2"].map(RecoveryCodes.digest))
        let restored = try PushDeviceProfile(state: StateReader(device.stateJSON, path: "server.users.demo.push[0]"))
        #expect(restored == device)
        #expect(device.restJSON.keys.sorted() == ["_id", "createdDate", "deviceName", "lastAccessDate", "uuid"])
        var broken = device.stateJSON.objectValue ?? [:]
        broken["sharedSecret"] = "not base64!"
        #expect(throws: StateError.self) {
            _ = try PushDeviceProfile(state: StateReader(.object(broken), path: "p"))
        }
    }
}
