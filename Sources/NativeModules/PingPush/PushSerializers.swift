import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// What crosses the bridge for a credential and a notification (`push/ios/PushSerializers.swift`,
/// `push/android/…/PushSerializers.kt`): times in milliseconds, absent values as `null`, the
/// shared secret never. The Android SDK's `PushCredential` has no `userId`, `resourceId` or
/// `serverEndpoint`, and its `PushNotification` no `challenge`: its bridge sends `null` for them.
enum PushSerializers {
    static func credential(_ mechanism: PushMechanism, platform: Platform) -> JSONValue {
        let ios = platform == .ios
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return [
            "id": .string(mechanism.id),
            "userId": ios ? text(mechanism.uid) : .null,
            // ping-ios `PushUriParser.parse` keeps `""` when the URI has no `pid`.
            "resourceId": ios ? .string(mechanism.resourceId ?? "") : .null,
            "issuer": .string(mechanism.issuer),
            "displayIssuer": .string(mechanism.displayIssuer ?? mechanism.issuer),
            "accountName": .string(mechanism.accountName),
            "displayAccountName": .string(mechanism.displayAccountName ?? mechanism.accountName),
            "serverEndpoint": ios ? .string(serverEndpoint(mechanism.registrationEndpoint)) : .null,
            "createdAt": .double(milliseconds(mechanism.addedAt)),
            "imageURL": .null, "backgroundColor": .null, "policies": .null, "lockingPolicy": .null,
            "isLocked": false, "platform": "PING_AM",
        ]
    }

    /// The push endpoint without its query (ping-ios `PushUriParser.extractServerEndpoint`).
    static func serverEndpoint(_ url: String) -> String {
        String(url.prefix { $0 != "?" })
    }

    static func notification(_ notification: PushNotification, appId: String, platform: Platform) -> JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        let ttl = Int64((notification.expiresAt - notification.sentAt).rounded())
        return [
            "id": .string(appId),
            "credentialId": .string(notification.mechanismUid),
            "ttl": platform == .ios ? .int(ttl) : .double(Double(ttl)),
            "messageId": .string(notification.id),
            "messageText": .string(notification.message),
            "customPayload": text(notification.customPayload),
            "challenge": platform == .ios ? .string(notification.challenge) : .null,
            "numbersChallenge": notification.numbers.isEmpty
                ? .null : .string(notification.numbers.map(String.init).joined(separator: ",")),
            "loadBalancer": text(notification.amlbCookie),
            "contextInfo": text(notification.contextInfo),
            "pushType": .string(notification.pushType),
            // The emulated push service delivers at once: received when sent.
            "createdAt": .double(milliseconds(notification.sentAt)),
            "sentAt": .double(milliseconds(notification.sentAt)),
            "respondedAt": notification.respondedAt.map { .double(milliseconds($0)) } ?? .null,
            "approved": .bool(notification.approved),
            "pending": .bool(notification.isPending),
        ]
    }

    private static func milliseconds(_ seconds: Double) -> Double { (seconds * 1000).rounded() }
}
