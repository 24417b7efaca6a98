import AuthBridgeCore
import IdentityServer

/// AM's device endpoints, `…/users/<user>/devices/2fa/oath|push|webauthn|binding` and
/// `…/devices/profile`
/// (https://docs.pingidentity.com/pingam/8/am-authentication/authn-mfa-list-devices.html and
/// …/authn-mfa-reset-devices.html): the caller's SSO session names who asks, and a user reaches
/// only their own devices (this server has no administrators). Each kind's REST form is its
/// profile's `restJSON`; a change goes through the directory, so `--state-dir` keeps it.
extension EmbeddedAM {
    public func devices(_ request: DevicesRequest) -> ServerReply {
        guard let token = request.ssoToken, let session = sessions.find(token) else {
            return ServerReply(status: 401, body: AMErrors.accessDenied)
        }
        guard let user = users.find(username: request.user) ?? users.find(id: request.user),
            user.username.lowercased() == session.username.lowercased()
        else { return ServerReply(status: 403, body: Self.forbidden) }
        if request.kind == DevicesRequest.profileKind { return profiles(request.operation, of: user) }
        guard let kind = DeviceKind(rawValue: request.kind) else {
            return ServerReply(status: 404, body: Self.notFound("Resource '\(request.kind)' not found"))
        }
        switch request.operation {
        case .query:
            return Self.queryResult(user.devices.restJSON(kind).map(JSONValue.object))
        case .rename(let uuid, let name):
            var renamed: JSONObject?
            _ = users.update(username: user.username) { user in
                if user.devices.rename(kind, uuid: uuid, to: name) {
                    renamed = user.devices.restJSON(kind).first { $0["uuid"]?.stringValue == uuid }
                }
            }
            guard let renamed else { return ServerReply(status: 404, body: Self.notFound("Device not found")) }
            return ServerReply(status: 200, body: .object(renamed))
        case .delete(let uuid):
            guard let device = user.devices.restJSON(kind).first(where: { $0["uuid"]?.stringValue == uuid }) else {
                return ServerReply(status: 404, body: Self.notFound("Device not found"))
            }
            _ = users.update(username: user.username) { _ = $0.devices.delete(kind, uuid: uuid) }
            return ServerReply(status: 200, body: .object(device))
        case .reset:
            guard kind == .oath || kind == .push else {
                return ServerReply(
                    status: 501,
                    body: [
                        "code": 501, "reason": "Not Implemented",
                        "message": "Action 'reset' not implemented for this resource",
                    ])
            }
            _ = users.update(username: user.username) { user in
                for uuid in user.devices.restJSON(kind).compactMap({ $0["uuid"]?.stringValue }) {
                    _ = user.devices.delete(kind, uuid: uuid)
                }
            }
            return ServerReply(status: 200, body: ["result": true])
        }
    }

    /// `…/devices/profile`: the Device Profile Save node's profiles, by `_id`; a rename sets the
    /// `alias`, and there is no reset.
    private func profiles(_ operation: DevicesRequest.Operation, of user: DirectoryUser) -> ServerReply {
        let listed = user.devices.profiles
        func find(_ uuid: String) -> Int? { listed.firstIndex { $0.uuid == uuid } }
        switch operation {
        case .query:
            return Self.queryResult(listed.map { JSONValue.object($0.restJSON) })
        case .rename(let uuid, let name):
            guard let index = find(uuid) else {
                return ServerReply(status: 404, body: Self.notFound("Device not found"))
            }
            var renamed = listed[index]
            renamed.alias = name
            _ = users.update(username: user.username) { $0.devices.profiles[index] = renamed }
            return ServerReply(status: 200, body: .object(renamed.restJSON))
        case .delete(let uuid):
            guard let index = find(uuid) else {
                return ServerReply(status: 404, body: Self.notFound("Device not found"))
            }
            _ = users.update(username: user.username) { $0.devices.profiles.remove(at: index) }
            return ServerReply(status: 200, body: .object(listed[index].restJSON))
        case .reset:
            return ServerReply(
                status: 501,
                body: [
                    "code": 501, "reason": "Not Implemented",
                    "message": "Action 'reset' not implemented for this resource",
                ])
        }
    }

    static let forbidden: JSONValue = [
        "code": 403, "reason": "Forbidden", "message": "User is not permitted to access another user's devices",
    ]

    static func notFound(_ message: String) -> JSONValue {
        ["code": 404, "reason": "Not Found", "message": .string(message)]
    }

    /// AM's answer to a `_queryFilter=true` on a devices collection: the items, unpaged.
    static func queryResult(_ result: [JSONValue]) -> ServerReply {
        ServerReply(
            status: 200,
            body: [
                "result": .array(result), "resultCount": .int(Int64(result.count)), "pagedResultsCookie": .null,
                "totalPagedResultsPolicy": "NONE", "totalPagedResults": -1, "remainingPagedResults": -1,
            ])
    }
}
