import AuthBridgeCore
import EmbeddedAM
import IdentityServer

/// A form's `SOCIAL_LOGIN_BUTTON` wired to the embedded server's emulated providers (docs/davinci.md,
/// "External identity providers"), both ways a DaVinci client takes it:
/// - natively (ping-ios-sdk `ExternalIdP/ExternalIdP/Handlers/IdpRequestHandler.swift`, the
///   Google, Apple and Facebook handlers): a GET of the field's `links.authenticate.href` with
///   `Accept: application/json` answers `{idp: {clientId, redirectUri, scopes, nonce},
///   _links.next.href}`; the provider's SDK signs in, and its credential is posted there
///   (`{idToken}` or `{accessToken}`), which answers the flow's next node;
/// - in a browser (ping-javascript-sdk davinci-client `client.store.ts` `externalIdp`/`resume`,
///   ping-ios-sdk `BrowserHandler.swift`): the same link opened in the browser goes through the
///   provider (its test account signs in at once) and back to the authorize request's redirect
///   URI with `continueToken`, which the client posts as a bearer token to the form's
///   `_links.continue.href`.
/// Either way the identity is checked as AM checks one and linked to a directory user
/// (`EmbeddedAM.socialAccount`), who is the flow's user from the button's outcome on.
extension PingOne {
    /// A capability for the interaction's IdP links, derived from its token so that the links
    /// carry no secret of the flow itself and no random draw is made for them.
    static func idpHandle(_ interaction: Interaction) -> String {
        Array(SHA256.hash("idp/\(interaction.token)").prefix(16)).hexString
    }

    static func idpNonce(_ interaction: Interaction) -> String {
        Base64URL.encode(Array(SHA256.hash("nonce/\(interaction.token)").prefix(18)))
    }

    /// `…/davinci/idp/{key}/{action}` (`authenticate`, `continue`) for a field, or the form's
    /// `…/davinci/idp/resume` when `key` is nil.
    func idpLink(_ action: String, key: String?, interaction: Interaction) -> String {
        let path = key.map { "\(PercentEncoding.escape($0))/\(action)" } ?? action
        return "\(origin)/\(environmentId)/davinci/idp/\(path)?interactionId=\(interaction.id)"
            + "&t=\(Self.idpHandle(interaction))"
    }

    /// `/davinci/idp/{key}/authenticate`, `/davinci/idp/{key}/continue`, `/davinci/idp/resume`.
    func idp(_ request: PingOneRequest) -> ServerReply {
        let rest = request.path.split(separator: "/").map(String.init).dropFirst(3)
        guard let id = request.query["interactionId"], var interaction = interactions[id],
            ConstantTime.equal(request.query["t"] ?? "", Self.idpHandle(interaction))
        else { return PingOneReplies.timedOut(self) }
        if Array(rest) == ["resume"] { return resume(request, &interaction) }
        guard rest.count == 2, let button = idpButton(PercentEncoding.unescape(rest.first ?? ""), interaction) else {
            return PingOneReplies.notFound()
        }
        switch (request.method.uppercased(), rest.last) {
        case ("GET", "authenticate"?):
            let accept = (request.headers["accept"] ?? "").lowercased()
            return accept.contains("json")
                ? idpClient(button, interaction) : signInInBrowser(button, &interaction)
        case ("POST", "continue"?):
            let body = request.json ?? .null
            let (token, type) =
                body["idToken"]?.stringValue.map { ($0, "id_token") }
                ?? body["accessToken"]?.stringValue.map { ($0, "access_token") } ?? ("", "id_token")
            return signIn(button, &interaction, token: token, tokenType: type)
        default: return PingOneReplies.notFound()
        }
    }

    /// A form's IdP button: its key, provider, client and where pressing it leads.
    struct IdpButton {
        var key: String
        var kind: SocialProviderKind
        var clientId: String
        var scopes: [String]
        var target: String
    }

    private func idpButton(_ key: String, _ interaction: Interaction) -> IdpButton? {
        guard let node = interaction.flow.nodes[interaction.form], case .form(let form) = node.kind,
            let field = form.fields.first(where: { $0.key == key && $0.type == "SOCIAL_LOGIN_BUTTON" }),
            let kind = SocialProviderKind(
                providerName: field.json["idpType"]?.stringValue ?? key, acceptsSiwa: false),
            let target = node.next[key] ?? node.next["*"]
        else { return nil }
        return IdpButton(
            key: key, kind: kind,
            clientId: field.json["clientId"]?.stringValue ?? "authbridge-\(kind.rawValue)-client",
            scopes: field.json["scopes"]?.arrayValue?.compactMap(\.stringValue) ?? ["openid", "email", "profile"],
            target: target)
    }

    /// What a native handler fetches first (`IdpClient(response:)`).
    private func idpClient(_ button: IdpButton, _ interaction: Interaction) -> ServerReply {
        let next = idpLink("continue", key: button.key, interaction: interaction)
        return ServerReply(
            status: 200,
            body: [
                "idp": [
                    "clientId": .string(button.clientId), "redirectUri": .string(interaction.authorization.redirectUri),
                    "scopes": .array(button.scopes.map { .string($0) }), "nonce": .string(Self.idpNonce(interaction)),
                ],
                "_links": ["next": ["href": .string(next)]],
            ])
    }

    /// The provider's credential checked and linked: the button's outcome, with the user.
    private func signIn(
        _ button: IdpButton, _ interaction: inout Interaction, token: String, tokenType: String
    ) -> ServerReply {
        switch server.socialIdentity(
            button.kind, clientId: button.clientId, token: token, tokenType: tokenType,
            nonce: tokenType == "id_token" ? Self.idpNonce(interaction) : "")
        {
        case .failure(let refusal):
            return reply(
                error: .validation([ErrorDetail(code: "INVALID_VALUE", target: button.key, message: refusal.reason)]),
                in: interaction)
        case .success(let identity):
            guard let user = server.socialAccount(for: identity) else {
                return PingOneReplies.failed(
                    self, code: "noUser", message: "No user for \(identity.alias)", interaction: interaction)
            }
            interaction.userId = user.id
            return advance(&interaction, to: button.target)
        }
    }

    /// The browser's way: the provider's test account signs in, then back to the app.
    private func signInInBrowser(_ button: IdpButton, _ interaction: inout Interaction) -> ServerReply {
        let credential: SocialCredential
        do {
            credential = try server.socialProviders.signIn(
                SocialSignInRequest(
                    kind: button.kind, clientId: button.clientId, scopes: button.scopes,
                    nonce: Self.idpNonce(interaction)))
        } catch {
            return ServerReply(
                status: 400, body: PingOneErrors.status(400, message: "The \(button.kind.rawValue) sign-in failed"))
        }
        let token = credential.idToken ?? credential.accessToken ?? ""
        switch server.socialIdentity(
            button.kind, clientId: button.clientId, token: token,
            tokenType: credential.idToken != nil ? "id_token" : "access_token", nonce: Self.idpNonce(interaction))
        {
        case .failure(let refusal):
            return ServerReply(status: 400, body: PingOneErrors.status(400, message: refusal.reason))
        case .success(let identity):
            guard let user = server.socialAccount(for: identity) else {
                return ServerReply(
                    status: 400, body: PingOneErrors.status(400, message: "No user for \(identity.alias)"))
            }
            interaction.userId = user.id
            let continueToken = random.bytes(32).hexString
            interaction.idpResume = (continueToken, button.target)
            interactions[interaction.id] = interaction
            let target = interaction.authorization.redirectUri
            let separator = target.contains("?") ? "&" : "?"
            return ServerReply(
                status: 302, headers: ["Location": "\(target)\(separator)continueToken=\(continueToken)"])
        }
    }

    /// `_links.continue.href` with `Authorization: Bearer <continueToken>`: the button's outcome.
    private func resume(_ request: PingOneRequest, _ interaction: inout Interaction) -> ServerReply {
        let header = request.headers["authorization"] ?? ""
        guard request.method.uppercased() == "POST", header.lowercased().hasPrefix("bearer "),
            let (token, target) = interaction.idpResume,
            ConstantTime.equal(String(header.dropFirst(7)), token)
        else { return PingOneReplies.timedOut(self) }
        interaction.idpResume = nil
        return advance(&interaction, to: target)
    }
}
