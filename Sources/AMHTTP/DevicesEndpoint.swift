import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `…/json/realms/root/realms/<realm>/users/<user>/devices/2fa/<kind>`: a user's OATH, push,
/// WebAuthn and bound devices, and `…/devices/profile`, the Device Profile Save node's profiles
/// (renamed by their `alias`) (https://docs.pingidentity.com/pingam/8/am-authentication/authn-mfa-list-devices.html,
/// …/authn-mfa-reset-devices.html). `GET ?_queryFilter=true` lists, `PUT …/<uuid>` with
/// `{"deviceName": …}` renames, `DELETE …/<uuid>` deletes, `POST ?_action=reset` resets (OATH,
/// push). The caller is named by its SSO token: the cookie, or a header named like it.
extension AMRoutes {
    func devices(
        _ request: HTTPRequest, user: String, kind: String, uuid: String?
    ) throws(TransportError)
        -> HTTPResponse
    {
        let headers = [APIVersion.header("1.0"), AMResponse.noStore]
        let operation: DevicesRequest.Operation
        switch (request.method, uuid) {
        case ("GET", nil), ("HEAD", nil):
            guard let filter = request.queryParameters["_queryFilter"] else {
                return AMResponse.error(400, "A _queryFilter is required: _queryFilter=true", headers: headers)
            }
            guard filter == "true" else {
                return AMResponse.error(400, "Only _queryFilter=true is supported", headers: headers)
            }
            operation = .query
        case ("POST", nil):
            switch request.queryParameters["_action"] {
            case "reset": operation = .reset
            case let action?:
                return AMResponse.error(
                    501, "Action '\(action)' not implemented for this resource", headers: headers)
            case nil: return AMResponse.error(400, "An _action is required: reset", headers: headers)
            }
        case ("PUT", let uuid?):
            let member = DevicesRequest(ssoToken: nil, user: user, kind: kind, operation: .query).nameMember
            guard case .object(let body) = request.jsonBody, let name = body[member]?.stringValue else {
                return AMResponse.error(400, "The body must be a JSON object with a \(member)", headers: headers)
            }
            operation = .rename(uuid: uuid, deviceName: name)
        case ("DELETE", let uuid?):
            operation = .delete(uuid: uuid)
        default:
            return AMResponse.error(405, "Method \(request.method) not allowed", headers: headers)
        }
        let reply = try server.devices(
            DevicesRequest(
                ssoToken: request.ssoToken(cookieName: config.cookieName), user: user, kind: kind,
                operation: operation))
        return AMResponse.from(reply, headers: headers)
    }
}
