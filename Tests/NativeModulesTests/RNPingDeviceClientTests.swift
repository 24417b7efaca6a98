import AuthBridgeCore
import EmbeddedAM
import NativeModules
import TestSupport
import Testing

/// RNPingDeviceClient as `@ping-identity/rn-device-client` calls it: a client made for the SSO
/// token a journey gave, each kind listed in the RN codecs' shape, renamed and deleted at AM's
/// device endpoints, and each platform's rejections.
@Suite struct RNPingDeviceClientTests {
    typealias Code = (code: String, type: String?, message: String)

    /// An app signed in through RNPingJourney, with one device of each kind on demo's profile,
    /// and a device client made for its session.
    static func signedIn(_ flavor: Flavor) throws -> (ModuleHarness, handle: JSONValue, token: String) {
        let app = ModuleHarness(flavor: flavor)
        #expect(
            app.perform { world in
                world.embedded.users.update(username: "demo") { user in
                    let record = DeviceRecord(uuid: "d1", deviceName: "Phone", createdDate: 1000.5)
                    user.devices.oath = [
                        OathDeviceProfile(record: record, sharedSecret: Array(repeating: 7, count: 20))
                    ]
                    user.devices.binding = [BoundDeviceProfile(record: record, deviceId: "dev", key: ["kid": "d1"])]
                    user.devices.profiles = [
                        SavedDeviceProfile(
                            uuid: "p1", identifier: "phone-1", alias: "Ada's phone",
                            metadata: ["platform": ["deviceName": "Ada's phone"]], location: nil, lastSelectedDate: 2000
                        )
                    ]
                }
            })
        let journey = try app.call("RNPingJourney.configureJourney", ["serverUrl": "http://localhost:8080/am"])
        _ = try app.call("RNPingJourney.start", journey, "Login", [:])
        let success = try app.call(
            "RNPingJourney.next", journey, "",
            [
                "callbacks": [
                    ["type": "NameCallback", "value": "demo"], ["type": "PasswordCallback", "value": "Ch4ng3it!"],
                ]
            ])
        let token = try #require(success["input"]?["tokenId"]?.stringValue)
        let handle = try app.call(
            "RNPingDeviceClient.create",
            [
                "serverUrl": "http://localhost:8080/am", "ssoToken": .string(token), "realm": "alpha",
                "cookieName": "iPlanetDirectoryPro",
            ])
        return (app, handle, token)
    }

    static func code(_ error: BridgeError?) -> Code? { RNPingOidcTests.code(error).map { ($0.0, $0.1, $0.2) } }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func eachKindIsListedInTheCodecsShape(flavor: Flavor) throws {
        let (app, handle, _) = try Self.signedIn(flavor)
        #expect(
            try app.call("RNPingDeviceClient.get", handle, "oath") == [
                "result": [
                    [
                        "id": "d1", "deviceName": "Phone", "uuid": "d1", "createdDate": 1_000_500,
                        "lastAccessDate": 1_000_500,
                    ]
                ]
            ])
        #expect(
            try app.call("RNPingDeviceClient.get", handle, "bound")["result"]?.arrayValue?.first?["deviceId"] == "dev")
        #expect(try app.call("RNPingDeviceClient.get", handle, "push") == ["result": []])
        let profile = try #require(
            try app.call("RNPingDeviceClient.get", handle, "profile")["result"]?.arrayValue?.first)
        #expect(profile["deviceName"] == "Ada's phone" && profile["identifier"] == "phone-1")
        #expect(profile["lastSelectedDate"] == .int(2_000_000) && profile["metadata"]?["platform"] != nil)
        // Android's codec writes a missing location as null; iOS's encoder leaves it out.
        #expect(profile["location"] == (flavor == .reactNativeAndroid ? JSONValue.null : nil))
    }

    @Test(arguments: [Flavor.reactNativeIOS, .reactNativeAndroid])
    func updateRenamesAndDeleteRemovesResolvingTheDeviceSent(flavor: Flavor) throws {
        let (app, handle, _) = try Self.signedIn(flavor)
        var oath = try #require(
            try app.call("RNPingDeviceClient.get", handle, "oath")["result"]?.arrayValue?.first?.objectValue)
        oath["deviceName"] = "Work phone"
        oath["extra"] = "dropped"
        let sent = try app.call("RNPingDeviceClient.update", handle, "oath", .object(oath))
        oath["extra"] = nil
        #expect(sent == ["result": .object(oath)])
        #expect(
            try app.call("RNPingDeviceClient.get", handle, "oath")["result"]?.arrayValue?.first?["deviceName"]
                == "Work phone")
        var profile = try #require(
            try app.call("RNPingDeviceClient.get", handle, "profile")["result"]?.arrayValue?.first?.objectValue)
        profile["deviceName"] = "Mine"
        _ = try app.call("RNPingDeviceClient.update", handle, "profile", .object(profile))
        #expect(app.perform { $0.embedded.users.find(username: "demo")?.devices.profiles.first?.alias } == "Mine")
        let bound = try #require(try app.call("RNPingDeviceClient.get", handle, "bound")["result"]?.arrayValue?.first)
        #expect(try app.call("RNPingDeviceClient.deleteDevice", handle, "bound", bound) == ["result": bound])
        #expect(try app.call("RNPingDeviceClient.get", handle, "bound") == ["result": []])
    }

    /// iOS refuses any status as `DeviceError.requestFailed` (401 invalid token, 404 not found);
    /// Android's SDK lists what a body's `result` holds and fails a change with its own text.
    @Test func statusesAsEachPlatformSeesThem() throws {
        let (ios, iosHandle, _) = try Self.signedIn(.reactNativeIOS)
        let (android, androidHandle, _) = try Self.signedIn(.reactNativeAndroid)
        let gone: JSONValue = [
            "id": "nope", "deviceName": "x", "uuid": "nope", "createdDate": 1, "lastAccessDate": 1,
        ]
        #expect(
            Self.code(ios.rejection("RNPingDeviceClient.deleteDevice", iosHandle, "oath", gone))! == (
                "DEVICE_CLIENT_NOT_FOUND", "network_error", "Request failed with status 404: Failed to delete device"
            ))
        #expect(
            Self.code(android.rejection("RNPingDeviceClient.update", androidHandle, "oath", gone))! == (
                "DEVICE_CLIENT_ERROR", "unknown_error",
                #"Failed to update device: 404 - {"code":404,"reason":"Not Found","message":"Device not found"}"#
            ))
        for app in [ios, android] {
            _ = app.perform { world in try? world.revokeSessions(username: "demo") }
        }
        #expect(
            Self.code(ios.rejection("RNPingDeviceClient.get", iosHandle, "oath"))! == (
                "DEVICE_CLIENT_INVALID_TOKEN", "network_error",
                "Request failed with status 401: Failed to fetch devices"
            ))
        #expect(try android.call("RNPingDeviceClient.get", androidHandle, "oath") == ["result": []])
    }

    @Test func aTokenWithoutASessionFailsAtTheSessionLookup() throws {
        for (flavor, expected) in [
            (
                Flavor.reactNativeIOS,
                (
                    "DEVICE_CLIENT_INVALID_TOKEN", "network_error",
                    "Request failed with status 401: Failed to retrieve session information"
                )
            ),
            (.reactNativeAndroid, ("DEVICE_CLIENT_ERROR", "unknown_error", "User ID cannot be blank.")),
        ] as [(Flavor, (String, String?, String))] {
            let app = ModuleHarness(flavor: flavor)
            let handle = try app.call(
                "RNPingDeviceClient.create", ["serverUrl": "s", "ssoToken": "not-a-session", "cookieName": "c"])
            #expect(Self.code(app.rejection("RNPingDeviceClient.get", handle, "oath"))! == expected)
        }
    }

    @Test func aDeviceJSCannotReadIsRejectedAsEachCodecRejectsIt() throws {
        let (ios, iosHandle, _) = try Self.signedIn(.reactNativeIOS)
        let (android, androidHandle, _) = try Self.signedIn(.reactNativeAndroid)
        let noUuid: JSONValue = ["id": "d1", "deviceName": "x", "createdDate": 1, "lastAccessDate": 1]
        #expect(
            Self.code(ios.rejection("RNPingDeviceClient.update", iosHandle, "oath", noUuid))! == (
                "DEVICE_CLIENT_DECODING_FAILED", "parse_error", "The data couldn’t be read because it is missing."
            ))
        #expect(
            Self.code(android.rejection("RNPingDeviceClient.update", androidHandle, "oath", noUuid))! == (
                "DEVICE_CLIENT_MISSING_CONFIG", "argument_error", "Missing required parameter: uuid"
            ))
        let textDate: JSONValue = [
            "id": "d1", "deviceName": "x", "uuid": "d1", "createdDate": "1", "lastAccessDate": 1,
        ]
        #expect(
            Self.code(ios.rejection("RNPingDeviceClient.update", iosHandle, "oath", textDate))?.message
                == "The data couldn’t be read because it isn’t in the correct format.")
        // The kind: iOS checks it first; Android's decoder reads id and name, then refuses it.
        #expect(
            Self.code(ios.rejection("RNPingDeviceClient.deleteDevice", iosHandle, "tablet", noUuid))! == (
                "DEVICE_CLIENT_ERROR", "argument_error", "Unsupported device type: tablet"
            ))
        #expect(
            Self.code(android.rejection("RNPingDeviceClient.deleteDevice", androidHandle, "tablet", noUuid))! == (
                "DEVICE_CLIENT_MISSING_CONFIG", "argument_error", "Unsupported device kind: tablet"
            ))
        #expect(
            Self.code(android.rejection("RNPingDeviceClient.get", androidHandle, "tablet"))! == (
                "DEVICE_CLIENT_ERROR", "argument_error", "Unsupported device type: tablet"
            ))
    }

    @Test func createNeedsItsConfigAndDisposeForgetsTheHandle() throws {
        for flavor in [Flavor.reactNativeIOS, .reactNativeAndroid] {
            let app = ModuleHarness(flavor: flavor)
            let missing = (
                "DEVICE_CLIENT_MISSING_CONFIG", "argument_error", "serverUrl, ssoToken, and cookieName are required."
            )
            #expect(
                Self.code(app.rejection("RNPingDeviceClient.create", ["serverUrl": "s", "ssoToken": "t"]))! == missing)
            let blank: JSONValue = ["serverUrl": "s", "ssoToken": " ", "cookieName": "c"]
            if flavor == .reactNativeAndroid {
                #expect(Self.code(app.rejection("RNPingDeviceClient.create", blank))! == missing)
            } else {
                #expect(try app.call("RNPingDeviceClient.create", blank).stringValue != nil)
            }
            let handle = try app.call(
                "RNPingDeviceClient.create", ["serverUrl": "s", "ssoToken": "t", "cookieName": "c"])
            let id = try #require(handle.stringValue)
            #expect(id == (flavor == .reactNativeIOS ? id.uppercased() : id.lowercased()))
            #expect(try app.call("RNPingDeviceClient.dispose", handle) == .null)
            #expect(try app.call("RNPingDeviceClient.dispose", "never-made") == .null)
            #expect(
                Self.code(app.rejection("RNPingDeviceClient.get", handle, "oath"))! == (
                    "DEVICE_CLIENT_HANDLE_NOT_FOUND", "state_error",
                    "Device Client handle not found. The client may have been disposed."
                ))
            #expect(throws: BridgeError.self) { try app.call("RNPingDeviceClient.get", handle) }
        }
    }
}
