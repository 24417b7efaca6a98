import AuthBridgeCore
import IdentityServer

/// The successor SDK's device client (ping-ios-sdk `DeviceClient/DeviceClient/DeviceClient.swift`,
/// ping-android-sdk `foundation/device/device-client/src/main/kotlin/com/pingidentity/device/client/DeviceClient.kt`):
/// AM's device endpoints with one SSO token. Both learn whose devices they manage once, from
/// `POST …/sessions?_action=getSessionInfo` (its `username`), then list
/// (`GET …/users/<user>/devices/2fa/<kind>?_queryFilter=true`, `…/devices/profile`), update
/// (`PUT …/<id>`) and delete (`DELETE …/<id>`), sending the token in a header named by the
/// cookie name. Where the two SDKs read AM's answers differently, `platform` decides.
public final class PingDeviceClient {
    /// A call that did not succeed, as the platform's SDK sees it.
    public enum Failure: Error, Equatable {
        /// iOS: `getSessionInfo` answered `status` (`DeviceError.requestFailed`, "Failed to retrieve
        /// session information").
        case sessionInfo(status: Int)
        /// iOS: `getSessionInfo` answered 200 without the session fields its `Session` decodes
        /// (`DeviceError.decodingFailed`).
        case sessionUnreadable
        /// Android: `getSessionInfo` gave no `username`, which it keeps as "" for the client's
        /// life ("User ID cannot be blank.").
        case blankUser
        /// The device endpoint answered `status` with `body` (a list on iOS, an update or a
        /// delete on both).
        case status(Int, body: JSONValue)
        /// AM could not be reached.
        case transport(String)
    }

    public let platform: Platform
    let server: IdentityServer
    let ssoToken: String
    /// The user id the client learned: iOS keeps only a found one; Android keeps what it read,
    /// "" included (`cachedUserId`).
    private var userId: String?

    init(platform: Platform, server: IdentityServer, ssoToken: String) {
        self.platform = platform
        self.server = server
        self.ssoToken = ssoToken
    }

    /// The devices of a kind (`kind` is the path's: `oath`, `push`, `webauthn`, `binding`,
    /// `profile`), as AM lists them. Android reads `result` from whatever AM answers, so an
    /// error body lists nothing (`devices()` in `DeviceClient.kt`); iOS refuses any status but 200.
    public func list(kind: String) throws(Failure) -> [JSONValue] {
        let reply = try call(kind: kind, .query)
        if platform == .ios, reply.status != 200 { throw .status(reply.status, body: reply.body) }
        return reply.body["result"]?.arrayValue ?? []
    }

    /// Renames a device (`PUT`, the SDK sending the whole device; AM reads its name).
    public func rename(kind: String, id: String, name: String) throws(Failure) {
        let reply = try call(kind: kind, .rename(uuid: id, deviceName: name))
        guard reply.status == 200 else { throw .status(reply.status, body: reply.body) }
    }

    /// Deletes a device. iOS also takes a 204; Android only a 200.
    public func delete(kind: String, id: String) throws(Failure) {
        let reply = try call(kind: kind, .delete(uuid: id))
        guard reply.status == 200 || (platform == .ios && reply.status == 204) else {
            throw .status(reply.status, body: reply.body)
        }
    }

    private func call(kind: String, _ operation: DevicesRequest.Operation) throws(Failure) -> ServerReply {
        let user = try user()
        do {
            return try server.devices(DevicesRequest(ssoToken: ssoToken, user: user, kind: kind, operation: operation))
        } catch {
            throw .transport(error.message)
        }
    }

    private func user() throws(Failure) -> String {
        if let userId {
            guard !userId.isEmpty else { throw .blankUser }
            return userId
        }
        let reply: ServerReply
        do {
            reply = try server.sessionInfo(ssoToken: ssoToken, refresh: false)
        } catch {
            throw .transport(error.message)
        }
        switch platform {
        case .ios:
            guard reply.status == 200 else { throw .sessionInfo(status: reply.status) }
            let fields = ["username", "universalId", "realm", "latestAccessTime", "maxIdleExpirationTime"]
            guard let name = reply.body["username"]?.stringValue,
                (fields + ["maxSessionExpirationTime"]).allSatisfy({ reply.body[$0]?.stringValue != nil })
            else { throw .sessionUnreadable }
            userId = name
            return name
        case .android:
            let name = reply.body["username"]?.stringValue ?? ""
            userId = name
            guard !name.isEmpty else { throw .blankUser }
            return name
        }
    }
}

extension PingSDK {
    /// A device client over this SDK's server with the SSO token the app passes.
    public func deviceClient(ssoToken: String) -> PingDeviceClient {
        PingDeviceClient(platform: platform, server: server, ssoToken: ssoToken)
    }
}
