import AuthBridgeCore
import IdentityServer

/// The bodies PingOne answers with, shaped as the SDKs read them (docs/davinci.md, "Answers").
/// `Set-Cookie` may carry several cookies, one per line (the HTTP face sends a header for each).
enum PingOneReplies {
    /// A form: `interactionId`, `interactionToken`, `_links.next.href`, `eventName`, `id`,
    /// `form.components.fields`, `formData.value` (ForgeRock/forgerock-javascript-sdk
    /// `e2e/mock-api-v2/src/responses/username-password.ts`; ping-ios-sdk `Transform.swift`,
    /// `Form.swift`). A form that sets a password carries the policy (`passwordPolicy`).
    static func form(
        _ pingOne: PingOne, form: FlowForm, fields: [JSONObject], interaction: Interaction
    )
        -> ServerReply
    {
        // What a collector adds (a new password's policy) goes on its field, where the RN SDK's
        // mappers (packages/davinci ios `Mapper/DaVinciNodeMapper.swift`) and davinci-client
        // (`src/lib/node.reducer.ts`) read it, and at the top, where ping-ios-sdk's
        // `Davinci/Davinci/collector/PasswordCollector.swift` reads it from the node's input.
        var fields = fields
        var extras = JSONObject()
        var hasIdp = false
        for (index, field) in zip(fields.indices, form.fields) {
            // An IdP button's link to the emulated provider (`PingOne+Idp.swift`).
            if field.type == "SOCIAL_LOGIN_BUTTON" {
                hasIdp = true
                fields[index]["links"] = [
                    "authenticate": [
                        "href": .string(pingOne.idpLink("authenticate", key: field.key, interaction: interaction))
                    ]
                ]
            }
            for member in field.collector.extras(field.json).members {
                fields[index][member.key] = member.value
                extras[member.key] = member.value
            }
        }
        let connection = connectionId("httpConnector", flow: interaction.flow)
        var values = JSONObject()
        for (field, shown) in zip(form.fields, fields) where field.collector.kind == .value {
            values[field.key] = interaction.values[field.key] ?? shown["value"] ?? ""
        }
        var body: JSONObject = [
            "interactionId": .string(interaction.id), "interactionToken": .string(interaction.token),
            "_links": [
                "next": [
                    "href": .string(
                        "\(pingOne.origin)/\(pingOne.environmentId)/davinci/connections/\(connection)"
                            + "/capabilities/customHTMLTemplate")
                ]
            ],
            "eventName": "continue", "isResponseCompatibleWithMobileAndWebSdks": true,
            "id": .string(interaction.stepId),
            "companyId": .string(pingOne.environmentId), "flowId": .string(interaction.flow.id),
            "connectionId": .string(connection), "capabilityName": "customHTMLTemplate",
            "formData": ["value": .object(values)],
            "form": [
                "name": .string(form.name), "description": .string(form.description),
                "category": .string(form.category), "components": ["fields": .array(fields.map { .object($0) })],
            ],
        ]
        for member in extras.members { body[member.key] = member.value }
        // Where a browser's client resumes after the provider (davinci-client `resume`).
        if hasIdp, case .object(var links)? = body["_links"] {
            links["continue"] = ["href": .string(pingOne.idpLink("resume", key: nil, interaction: interaction))]
            body["_links"] = .object(links)
        }
        return ServerReply(
            status: 200, body: .object(body),
            headers: [
                "Set-Cookie": "interactionId=\(interaction.id); Path=/; HttpOnly\n"
                    + "interactionToken=\(interaction.token); Path=/; HttpOnly"
            ])
    }

    /// The flow signed the user on: `authorizeResponse: {code, state}` with `session.id`, `status:
    /// COMPLETED` (ForgeRock/forgerock-javascript-sdk `e2e/mock-api-v2/src/responses/return-success-redirect.ts`),
    /// and the session in PingOne's `ST` cookie. `code` is the embedded issuer's authorize reply.
    static func completed(
        _ pingOne: PingOne, code: ServerReply, session: String, interaction: Interaction?
    )
        -> ServerReply
    {
        let location = code.headers["Location"] ?? ""
        let parameters = PercentEncoding.queryParameters(of: location)
        guard code.status == 302, let value = parameters["code"] else {
            let error = parameters["error"] ?? code.body["error"]?.stringValue ?? "server_error"
            let description =
                parameters["error_description"] ?? code.body["error_description"]?.stringValue ?? "No code"
            return failed(pingOne, code: error, message: description, interaction: interaction)
        }
        var response: JSONObject = ["code": .string(value)]
        if let state = parameters["state"] { response["state"] = .string(state) }
        let connection = interaction.map { connectionId("pingOneAuthenticationConnector", flow: $0.flow) } ?? ""
        return ServerReply(
            status: 200,
            body: [
                "interactionId": .string(interaction?.id ?? ""), "companyId": .string(pingOne.environmentId),
                "connectionId": .string(connection), "connectorId": "pingOneAuthenticationConnector",
                "id": .string(interaction?.stepId ?? ""), "capabilityName": "returnSuccessResponseRedirect",
                "environment": ["id": .string(pingOne.environmentId)],
                "session": ["id": .string(String(session.prefix(20)))], "status": "COMPLETED",
                "authorizeResponse": .object(response), "isResponseCompatibleWithMobileAndWebSdks": true,
                "success": true, "resetCookie": true, "interactionToken": .string(interaction?.token ?? ""),
            ],
            headers: [
                "Set-Cookie": "ST=\(session); Path=/; HttpOnly\ninteractionId=; Max-Age=0; Path=/\n"
                    + "interactionToken=; Max-Age=0; Path=/"
            ])
    }

    /// A flow that ended without a user: 200 with `status: FAILED` and `error` (the SDKs make it a
    /// FailureNode: ping-ios-sdk `Transform.swift`, ping-javascript-sdk `davinci.utils.ts`).
    static func failed(_ pingOne: PingOne, code: String, message: String, interaction: Interaction?) -> ServerReply {
        ServerReply(
            status: 200,
            body: [
                "interactionId": .string(interaction?.id ?? ""), "companyId": .string(pingOne.environmentId),
                "status": "FAILED", "error": ["code": .string(code), "message": .string(message)],
                "isResponseCompatibleWithMobileAndWebSdks": true,
            ])
    }

    /// An interaction the server no longer holds (or a wrong token): 400 with `code:
    /// requestTimedOut`, which the SDKs treat as unrecoverable (a FailureNode, not an ErrorNode).
    static func timedOut(_ pingOne: PingOne) -> ServerReply {
        ServerReply(
            status: 400,
            body: [
                "code": "requestTimedOut", "message": "The interaction has expired or is unknown; start again",
                "companyId": .string(pingOne.environmentId), "httpResponseCode": 400,
            ])
    }

    /// `/as/authorize` refused before a flow started (ForgeRock/forgerock-javascript-sdk
    /// `e2e/mock-api-v2/src/schemas/authorize.schema.ts` `DavinciAuthorizeFailure`).
    static func authorizeError(_ error: String, _ description: String) -> ServerReply {
        ServerReply(status: 400, body: ["error": .string(error), "error_description": .string(description)])
    }

    static func notFound() -> ServerReply {
        ServerReply(status: 404, body: PingOneErrors.status(404, message: "The requested resource was not found."))
    }

    /// `/{envId}/as/.well-known/openid-configuration`: the endpoints under `/{envId}/as/` as
    /// PingOne lists them; keys and token signing are the embedded issuer's (its JWKS).
    static func discovery(_ pingOne: PingOne) -> ServerReply {
        let base = pingOne.asBase
        return ServerReply(
            status: 200,
            body: [
                "issuer": .string(base), "authorization_endpoint": .string("\(base)/authorize"),
                "token_endpoint": .string("\(base)/token"), "userinfo_endpoint": .string("\(base)/userinfo"),
                "jwks_uri": .string("\(pingOne.server.config.issuer)/connect/jwk_uri"),
                "end_session_endpoint": .string("\(base)/signoff"), "revocation_endpoint": .string("\(base)/revoke"),
                "response_types_supported": ["code"],
                "response_modes_supported": ["query", "fragment", "form_post", "pi.flow"],
                "grant_types_supported": ["authorization_code", "refresh_token"],
                "subject_types_supported": ["public"], "id_token_signing_alg_values_supported": ["HS256", "RS256"],
                "scopes_supported": .array((pingOne.server.config.clients.first?.scopes ?? []).map { .string($0) }),
                "code_challenge_methods_supported": ["plain", "S256"],
                "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
                "claims_parameter_supported": false,
            ])
    }

    /// A connection's id in a flow, stable per flow and connector (32 hex digits, as DaVinci's).
    static func connectionId(_ connector: String, flow: DaVinciFlow) -> String {
        Array(SHA256.hash("\(flow.id)/\(connector)").prefix(16)).hexString
    }
}
