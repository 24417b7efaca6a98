import AuthBridgeCore
import IdentityServer

/// A user as an external provider vouched for them, once their credential checked out.
public struct SocialIdentity: Equatable, Sendable {
    public var provider: SocialProviderKind
    public var subject: String
    public var email: String?
    public var givenName: String?
    public var familyName: String?

    /// How the directory links it (`aliasList`, as AM's Social Provider Handler writes it).
    public var alias: String { "\(provider.rawValue)-\(subject)" }
}

extension EmbeddedAM {
    /// Checks a credential the app's provider SDK got from an emulated provider, as AM's OAuth
    /// clients check one (`SocialProviderClient`): an ID token (`tokenType` `id_token`) against the
    /// provider's JWKS, issuer, audience `clientId`, expiry and `nonce`; an access token by the
    /// provider's user-info endpoint. The reason it was refused, otherwise.
    public func socialIdentity(
        _ kind: SocialProviderKind, clientId: String, token: String, tokenType: String, nonce: String
    ) -> Result<SocialIdentity, SocialIdentityRefusal> {
        let endpoints = EmulatedSocialProviders.endpoints(kind)
        var config: JSONObject = [
            "_type": ["_id": .string("\(kind.rawValue)Config")], "clientId": .string(clientId),
            "issuer": .string(endpoints.issuer),
        ]
        config["jwksUriEndpoint"] = endpoints.jwks.map { .string($0) }
        config["userInfoEndpoint"] = endpoints.userInfo.map { .string($0) }
        config["tokenEndpoint"] = endpoints.token.map { .string($0) }
        let client = SocialProviderClient(name: kind.rawValue, config: config)
        let providers = socialProviders
        let network = ProviderNetwork(
            get: { url, bearer in providers.get(url, bearer: bearer) },
            post: { url, form in providers.post(url, form: form) })
        do {
            let profile = try client.profile(
                token: token, tokenType: tokenType, nonce: nonce, now: clock.now, network: network)
            let normalized = SocialProfileMapping.normalized(profile, provider: kind.rawValue)
            return .success(
                SocialIdentity(
                    provider: kind, subject: profile.subject, email: normalized["email"]?.stringValue,
                    givenName: normalized["givenName"]?.stringValue, familyName: normalized["familyName"]?.stringValue))
        } catch {
            return .failure(SocialIdentityRefusal(reason: error.description))
        }
    }

    /// The directory's user for an identity: the one linked to it, else the one with its e-mail
    /// (then linked), else a new one named by the e-mail (or `<provider>-<subject>`) with a random
    /// password, as a flow that provisions social users makes them.
    public func socialAccount(for identity: SocialIdentity) -> DirectoryUser? {
        if let user = users.find(aliasListContaining: identity.alias) { return user }
        if let email = identity.email, let user = users.find(attribute: "mail", value: email) {
            users.update(username: user.username) { user in
                var aliases = user.attributes["aliasList"]?.arrayValue ?? []
                aliases.append(.string(identity.alias))
                user.attributes["aliasList"] = .array(aliases)
            }
            return users.find(username: user.username)
        }
        var attributes: JSONObject = ["aliasList": [.string(identity.alias)]]
        attributes["mail"] = identity.email.map { .string($0) }
        attributes["givenName"] = identity.givenName.map { .string($0) }
        attributes["sn"] = identity.familyName.map { .string($0) }
        return try? users.add(
            username: identity.email ?? identity.alias, password: Base64URL.encode(random.bytes(24)),
            attributes: attributes)
    }
}

/// Why a provider's credential was refused (AM's `OAuthException` text).
public struct SocialIdentityRefusal: Error, Equatable, Sendable {
    public var reason: String
}
