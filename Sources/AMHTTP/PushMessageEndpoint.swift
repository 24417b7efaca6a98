import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `POST …/json/realms/root/realms/<realm>/push/sns/message?_action=register|authenticate`:
/// AM's push device endpoint, where an authenticator app answers a registration QR code or a
/// notification with `{messageId, jwt}` (ForgeRock/am-external `openam-push-notification`
/// `sns/SnsMessageResource.java`, served without authentication at resource version 1.0,
/// `SnsMessageResourceRouteProvider.java`). The server checks the answer.
extension AMRoutes {
    static let pushMessageVersions = ["1.0"]

    func pushMessage(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let version: String
        switch APIVersion.negotiate(request.header("Accept-API-Version"), supported: Self.pushMessageVersions) {
        case .success(let chosen): version = chosen
        case .failure(let refusal): return refusal.response
        }
        let headers = [APIVersion.header(version), AMResponse.noStore]
        guard let name = request.queryParameters["_action"] else {
            return AMResponse.error(400, "An _action is required: register or authenticate", headers: headers)
        }
        guard let action = PushAction(rawValue: name) else {
            return AMResponse.error(501, "Action '\(name)' not implemented for this resource", headers: headers)
        }
        guard case .object(let body) = request.jsonBody else {
            return AMResponse.error(400, "Bad Request", headers: headers)
        }
        return AMResponse.from(try server.pushMessage(action, body: body), headers: headers)
    }
}
