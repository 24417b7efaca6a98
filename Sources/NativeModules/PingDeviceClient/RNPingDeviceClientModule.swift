import AuthBridgeCore
import NativeSDK

/// `RNPingDeviceClient` (`device-client/src/NativeRNPingDeviceClient.ts`; native
/// `device-client/ios/RNPingDeviceClientCommon.swift`, `device-client/android/…/RNPingDeviceClientCommon.kt`):
/// `create(config)` makes a device client for one SSO token and answers its handle; `get`,
/// `update` and `deleteDevice` manage the user's devices of a kind over AM's device endpoints
/// (`PingDeviceClient`), each resolving `{result: …}`; `dispose` forgets the handle. The
/// config's `serverUrl` and `realm` are accepted as given: the daemon has one server.
public final class RNPingDeviceClientModule: NativeModule {
    public let name = "RNPingDeviceClient"
    public let namespace = "RNPingDeviceClient"
    private let sdk: PingSDK
    private var platform: Platform { sdk.platform }
    private var clients: [String: PingDeviceClient] = [:]

    public init(sdk: PingSDK) { self.sdk = sdk }

    public var methods: [NativeMethod] {
        [
            NativeMethod("create") { args throws(BridgeError) in try self.create(args) },
            NativeMethod("get") { args throws(BridgeError) in try self.get(args) },
            NativeMethod("update") { args throws(BridgeError) in try self.change(args, "update") },
            NativeMethod("deleteDevice") { args throws(BridgeError) in try self.change(args, "deleteDevice") },
            NativeMethod("dispose") { args throws(BridgeError) in
                // Both platforms drop the handle and resolve, unknown handles included.
                self.clients[try Arguments.string("dispose", args, name: "handleId")] = nil
                return .null
            },
        ]
    }

    /// Needs `serverUrl`, `ssoToken` and `cookieName` (Android also refuses blank ones); a
    /// missing or empty `realm` is `root` on both.
    func create(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("create", args, ["config"])
        let config = try Arguments.object(args, 0, "config")
        func present(_ key: String) -> String? {
            guard let text = config[key]?.stringValue, !text.isEmpty else { return nil }
            return platform == .android && text.allSatisfy(\.isWhitespace) ? nil : text
        }
        guard present("serverUrl") != nil, let token = present("ssoToken"), present("cookieName") != nil else {
            throw PingRejection.reject(
                Code.missingConfig, .argument, "serverUrl, ssoToken, and cookieName are required.")
        }
        let id = sdk.newId()
        clients[id] = sdk.deviceClient(ssoToken: token)
        return .string(id)
    }

    func get(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("get", args, ["handleId", "deviceType"])
        let client = try handle(args)
        let type = try Arguments.string(args, 1, "deviceType")
        guard let kind = DeviceKindSpec.named(type) else { throw unsupported(type) }
        let listed: [JSONValue]
        do throws(PingDeviceClient.Failure) {
            listed = try client.list(kind: kind.path)
        } catch {
            throw failure(error, doing: "fetch devices")
        }
        var devices: [JSONValue] = []
        for item in listed {
            do throws(DeviceDecodeFailure) {
                devices.append(.object(try kind.read(item.objectValue ?? [:], fromServer: true, platform: platform)))
            } catch {
                throw decoding(error, kind: kind, fromServer: true)
            }
        }
        return ["result": .array(devices)]
    }

    /// `update` and `deleteDevice`: the device JS passes, read as the platform's struct; the
    /// call; the device resolved as read (the SDKs answer the device they sent, not AM's body).
    func change(_ args: [JSONValue], _ method: String) throws(BridgeError) -> JSONValue {
        try Arguments.count(method, args, ["handleId", "deviceType", "device"])
        let client = try handle(args)
        let type = try Arguments.string(args, 1, "deviceType")
        let given = try Arguments.object(args, 2, "device")
        let kind: DeviceKindSpec
        if let found = DeviceKindSpec.named(type) {
            kind = found
        } else if platform == .ios {
            throw unsupported(type)
        } else {
            // `DeviceJson.decodeDevice` reads `id` and `deviceName` before it looks at the kind.
            let common = DeviceKindSpec(
                name: type, path: "", androidType: "", members: [.string("id"), .string("deviceName")])
            do throws(DeviceDecodeFailure) {
                _ = try common.read(given, fromServer: false, platform: platform)
            } catch {
                throw decoding(error, kind: common, fromServer: false)
            }
            throw PingRejection.reject(Code.missingConfig, .argument, "Unsupported device kind: \(type)")
        }
        let device: JSONObject
        do throws(DeviceDecodeFailure) {
            device = try kind.read(given, fromServer: false, platform: platform)
        } catch {
            throw decoding(error, kind: kind, fromServer: false)
        }
        let id = device["id"]?.stringValue ?? ""
        do throws(PingDeviceClient.Failure) {
            if method == "update" {
                try client.rename(kind: kind.path, id: id, name: device["deviceName"]?.stringValue ?? "")
            } else {
                try client.delete(kind: kind.path, id: id)
            }
        } catch {
            throw failure(error, doing: method == "update" ? "update device" : "delete device")
        }
        return ["result": .object(device)]
    }

    private func handle(_ args: [JSONValue]) throws(BridgeError) -> PingDeviceClient {
        let id = try Arguments.string(args, 0, "handleId")
        guard let client = clients[id] else {
            throw PingRejection.reject(
                Code.handleNotFound, .state, "Device Client handle not found. The client may have been disposed.")
        }
        return client
    }

    // MARK: rejections (`DeviceErrorMapper.swift`, `DeviceErrorClassifier.kt`)

    enum Code {
        static let unknown = "DEVICE_CLIENT_ERROR"
        static let network = "DEVICE_CLIENT_NETWORK_ERROR"
        static let requestFailed = "DEVICE_CLIENT_REQUEST_FAILED"
        static let invalidToken = "DEVICE_CLIENT_INVALID_TOKEN"
        static let decodingFailed = "DEVICE_CLIENT_DECODING_FAILED"
        static let missingConfig = "DEVICE_CLIENT_MISSING_CONFIG"
        static let notFound = "DEVICE_CLIENT_NOT_FOUND"
        static let handleNotFound = "DEVICE_CLIENT_HANDLE_NOT_FOUND"
    }

    private func unsupported(_ type: String) -> BridgeError {
        PingRejection.reject(Code.unknown, .argument, "Unsupported device type: \(type)")
    }

    /// iOS: a status is `DeviceError.requestFailed` (401 invalid token, 404 not found, others
    /// request failed; `network_error` with the status). Android: the SDK's plain `Exception`s
    /// are `unknown_error` (`DeviceErrorClassifier.classify`), with its text.
    private func failure(_ failure: PingDeviceClient.Failure, doing what: String) -> BridgeError {
        switch (failure, platform) {
        case (.transport(let message), _):
            return PingRejection.reject(Code.network, .network, message)
        case (.sessionInfo(let status), _):
            return requestFailed(status, "Failed to retrieve session information")
        case (.sessionUnreadable, _):
            return PingRejection.reject(
                Code.decodingFailed, .parse, "The data couldn’t be read because it is missing.")
        case (.blankUser, _):
            return PingRejection.reject(Code.unknown, .unknown, "User ID cannot be blank.")
        case (.status(let status, _), .ios):
            return requestFailed(status, "Failed to \(what)")
        case (.status(let status, let body), .android):
            return PingRejection.reject(
                Code.unknown, .unknown, "Failed to \(what): \(status) - \(JSONWriter().string(body))")
        }
    }

    private func requestFailed(_ status: Int, _ message: String) -> BridgeError {
        let code = status == 401 ? Code.invalidToken : status == 404 ? Code.notFound : Code.requestFailed
        return PingRejection.reject(code, .network, "Request failed with status \(status): \(message)", status: status)
    }

    /// iOS: a `DecodingError`'s Foundation text (`DeviceErrorMapper.mapError`). Android: from JS,
    /// `requireString`/`requireLong`'s `IllegalArgumentException` (missing config); from AM,
    /// kotlinx.serialization's `SerializationException` (decoding failed).
    private func decoding(_ error: DeviceDecodeFailure, kind: DeviceKindSpec, fromServer: Bool) -> BridgeError {
        switch platform {
        case .ios:
            let why = error.problem == .missing ? "it is missing" : "it isn’t in the correct format"
            return PingRejection.reject(Code.decodingFailed, .parse, "The data couldn’t be read because \(why).")
        case .android where fromServer:
            let key = kind.serverKey(error.key)
            return PingRejection.reject(
                Code.decodingFailed, .parse,
                "Field '\(key)' is required for type with serial name 'com.pingidentity.device.client.\(kind.androidType)', but it was missing at path: $"
            )
        case .android:
            let isDate = kind.members.contains { if case .date(error.key) = $0 { true } else { false } }
            return PingRejection.reject(
                Code.missingConfig, .argument,
                isDate ? "Missing required numeric field: \(error.key)" : "Missing required parameter: \(error.key)")
        }
    }
}
