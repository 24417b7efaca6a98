import AuthBridgeCore
import NativeSDK

/// The device kinds of `@ping-identity/rn-device-client` (`device-client/src/types/device.types.ts`)
/// and how each crosses the bridge: the native SDKs' device structs (ping-ios-sdk
/// `DeviceClient/DeviceClient/Device.swift`, ping-android-sdk `…/device/client/Device.kt`) read
/// from AM's JSON and from JS, and written back to JS by the RN packages' codecs
/// (`device-client/ios/DeviceJsonCodec.swift`, `device-client/android/…/DeviceJson.kt`): `_id`
/// becomes `id`, a profile's `alias` becomes `deviceName`, and only the struct's members pass.
struct DeviceKindSpec {
    /// The kind as JS names it (`deviceType`).
    var name: String
    /// The path segment of AM's endpoint (`devices/2fa/<path>`, or `devices/profile`).
    var path: String
    /// The Android data class, for kotlinx.serialization's messages.
    var androidType: String
    /// The struct's members in declaration order, as JS names them.
    var members: [Member]

    enum Member {
        case string(String)
        case date(String)
        /// A profile's `metadata` (a JSON object).
        case metadata
        /// A profile's optional `location` (`{latitude?, longitude?}`).
        case location
    }

    static let all: [DeviceKindSpec] = [
        twoFactor("oath", path: "oath", type: "OathDevice", extra: nil),
        twoFactor("push", path: "push", type: "PushDevice", extra: nil),
        twoFactor("bound", path: "binding", type: "BoundDevice", extra: "deviceId"),
        DeviceKindSpec(
            name: "profile", path: "profile", androidType: "ProfileDevice",
            members: [
                .string("id"), .string("deviceName"), .string("identifier"), .metadata, .location,
                .date("lastSelectedDate"),
            ]),
        twoFactor("webAuthn", path: "webauthn", type: "WebAuthnDevice", extra: "credentialId"),
    ]

    static func named(_ name: String) -> DeviceKindSpec? { all.first { $0.name == name } }

    private static func twoFactor(_ name: String, path: String, type: String, extra: String?) -> DeviceKindSpec {
        let extras: [Member] = extra.map { [.string($0)] } ?? []
        return DeviceKindSpec(
            name: name, path: path, androidType: type,
            members: [.string("id"), .string("deviceName")] + extras
                + [.string("uuid"), .date("createdDate"), .date("lastAccessDate")])
    }

    /// AM's name of a member: `_id`, and a profile's `alias` for `deviceName`.
    func serverKey(_ jsKey: String) -> String {
        switch jsKey {
        case "id": "_id"
        case "deviceName" where name == "profile": "alias"
        default: jsKey
        }
    }
}

/// Why a device could not be read, as each platform's decoder says it.
struct DeviceDecodeFailure: Error {
    enum Problem { case missing, wrongType }
    var key: String
    var problem: Problem
}

extension DeviceKindSpec {
    /// A device from AM's JSON (`server: true`) or from JS, as the platform's struct keeps it,
    /// written in the JS shape. iOS decodes every member strictly (`Codable`); Android's bridge
    /// reads JS with `requireString`/`requireLong` (a blank string is missing, a date loses its
    /// fraction) and AM's JSON with kotlinx.serialization.
    func read(_ source: JSONObject, fromServer: Bool, platform: Platform) throws(DeviceDecodeFailure) -> JSONObject {
        var device: JSONObject = [:]
        let lenientJS = platform == .android && !fromServer
        for member in members {
            switch member {
            case .string(let key):
                let value = source[fromServer ? serverKey(key) : key]
                guard let value, value != .null else { throw DeviceDecodeFailure(key: key, problem: .missing) }
                guard case .string(let text) = value else { throw DeviceDecodeFailure(key: key, problem: .wrongType) }
                if lenientJS, text.allSatisfy(\.isWhitespace) {
                    throw DeviceDecodeFailure(key: key, problem: .missing)
                }
                device[key] = .string(text)
            case .date(let key):
                guard let value = source[key], value != .null else {
                    throw DeviceDecodeFailure(key: key, problem: .missing)
                }
                guard let number = value.doubleValue else { throw DeviceDecodeFailure(key: key, problem: .wrongType) }
                // Android keeps a Long (`toLong()` drops the fraction); iOS a TimeInterval, divided
                // by 1000 and multiplied back.
                if let whole = value.intValue {
                    device[key] = .int(whole)
                } else if platform == .android, abs(number) < 9.0e15 {
                    device[key] = .int(Int64(number.rounded(.towardZero)))
                } else {
                    device[key] = .double(number)
                }
            case .metadata:
                switch source["metadata"] {
                case .object(let metadata)?: device["metadata"] = .object(metadata)
                case nil, .null?:
                    // Android's bridge defaults a missing map to `{}`; the SDK's decoder needs one.
                    guard lenientJS else { throw DeviceDecodeFailure(key: "metadata", problem: .missing) }
                    device["metadata"] = .object([:])
                default: throw DeviceDecodeFailure(key: "metadata", problem: .wrongType)
                }
            case .location:
                switch source["location"] {
                case .object(let location)?:
                    var kept: JSONObject = [:]
                    for key in ["latitude", "longitude"] {
                        guard let value = location[key], value != .null else { continue }
                        guard let number = value.doubleValue else {
                            throw DeviceDecodeFailure(key: key, problem: .wrongType)
                        }
                        kept[key] = .double(number)
                    }
                    device["location"] = .object(kept)
                case nil, .null?:
                    // Android's `DeviceJson.encodeDevice` writes a null; iOS's encoder leaves it out.
                    if platform == .android { device["location"] = .null }
                default: throw DeviceDecodeFailure(key: "location", problem: .wrongType)
                }
            }
        }
        return device
    }
}
