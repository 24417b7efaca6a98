import AuthBridgeCore
import IdentityServer

/// What a provider said about the user: the subject, the claims or profile it gave, and Apple's
/// `user` object (name and e-mail) when the app passed it along.
struct SocialProfile: Equatable {
    var subject: String
    var claims: JSONObject
    var appleUser: JSONObject?
}

/// How AM reaches a provider: a GET with an optional bearer token, a POST of a form.
struct ProviderNetwork {
    var get: (String, String?) -> ServerReply?
    var post: (String, [String: String]) -> ServerReply?
}

/// Why a provider's token was refused (AM's `OAuthException`, which the node turns into a node error).
struct SocialTokenError: Error, Equatable {
    var description: String
}

/// AM's OAuth client for one social provider (forgerock commons `OpenIDConnectClient`,
/// `AppleClient`, `OAuth2Client` behind `SocialOAuth2Helper.newOAuthClient`), built from the
/// provider's entry in AM's social identity provider service: what the IdPCallback offers the
/// app, and how a returned token becomes a profile (`handleNativePostAuth`, `getUserInfo`). It
/// reaches the provider only at the URLs its config names (`ProviderNetwork`).
struct SocialProviderClient {
    var name: String
    var config: JSONObject

    private func string(_ key: String) -> String { config[key]?.stringValue ?? "" }
    private func strings(_ key: String) -> [String] { config[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }

    /// The config's type (`_type._id`: `googleConfig`, `appleConfig`, `facebookConfig`, `oidcConfig`…).
    var configType: String { config["_type"]?["_id"]?.stringValue ?? "" }
    var isApple: Bool { configType == "appleConfig" }
    /// OIDC configs create a nonce for native clients unless `enableNativeNonce` is off.
    var usesNonce: Bool { configType != "facebookConfig" && (config["enableNativeNonce"]?.boolValue ?? true) }

    /// The IdPCallback's outputs, as AM converts the provider config into the callback.
    func callbackRequest(nonce: String) -> Callback.IdPRequest {
        Callback.IdPRequest(
            provider: name, clientId: string("clientId"),
            redirectUri: config["redirectURI"]?.stringValue ?? string("redirectUri"), scopes: strings("scopes"),
            nonce: nonce, acrValues: strings("acrValues"), request: "", requestUri: "",
            acceptsJSON: config["acceptsJSON"]?.boolValue ?? isApple)
    }

    /// The profile behind the app's answer. `token_type` says what `token` is: `id_token`
    /// (verified against the provider's JWKS, issuer, audience, expiry and nonce; with Apple's
    /// `acceptsJSON` the token may be the JSON of Apple's response, its `id_token` and `user`
    /// inside), `access_token` (sent to the user-info endpoint) or `authorization_code` (redeemed
    /// at the token endpoint for an ID token; `form_post_entry` means the code came as the
    /// request's `code` parameter, with Apple's `user`, from the browser's form_post).
    func profile(
        token: String, tokenType: String, nonce: String, parameters: [String: String] = [:], now: Double,
        network: ProviderNetwork
    ) throws(SocialTokenError) -> SocialProfile {
        guard !token.isEmpty else { throw SocialTokenError(description: "the IdPCallback carried no token") }
        switch tokenType {
        case "id_token":
            var idToken = token
            var appleUser: JSONObject?
            if token.hasPrefix("{"), case .object(let response)? = try? JSONParser.parse(token) {
                idToken = response["id_token"]?.stringValue ?? ""
                appleUser = response["user"]?.objectValue
            }
            let claims = try verifiedClaims(idToken, nonce: nonce, now: now, fetch: network.get)
            guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
                throw SocialTokenError(description: "the ID token has no subject")
            }
            return SocialProfile(subject: subject, claims: claims, appleUser: appleUser)
        case "access_token":
            let endpoint = string("userInfoEndpoint")
            guard !endpoint.isEmpty else {
                throw SocialTokenError(description: "an access token needs the provider's userInfoEndpoint")
            }
            guard let reply = network.get(endpoint, token), reply.status == 200, case .object(let info) = reply.body
            else {
                throw SocialTokenError(description: "Failed to retrieve social profile data from \(endpoint)")
            }
            let subject = info["id"]?.stringValue ?? info["sub"]?.stringValue ?? ""
            guard !subject.isEmpty else { throw SocialTokenError(description: "the profile has no id") }
            return SocialProfile(subject: subject, claims: info, appleUser: nil)
        case "authorization_code":
            let code = token == "form_post_entry" ? parameters["code"] ?? "" : token
            let endpoint = string("tokenEndpoint")
            guard !code.isEmpty, !endpoint.isEmpty else {
                throw SocialTokenError(
                    description: "an authorization code needs the code and the provider's tokenEndpoint")
            }
            let form = [
                "grant_type": "authorization_code", "code": code, "client_id": string("clientId"),
                "redirect_uri": config["redirectURI"]?.stringValue ?? "",
            ]
            guard let reply = network.post(endpoint, form), reply.status == 200,
                let idToken = reply.body["id_token"]?.stringValue
            else { throw SocialTokenError(description: "the provider's token endpoint did not redeem the code") }
            let claims = try verifiedClaims(idToken, nonce: nonce, now: now, fetch: network.get)
            guard let subject = claims["sub"]?.stringValue, !subject.isEmpty else {
                throw SocialTokenError(description: "the ID token has no subject")
            }
            let user = parameters["user"].flatMap { try? JSONParser.parse($0) }?.objectValue
            return SocialProfile(subject: subject, claims: claims, appleUser: user)
        default:
            throw SocialTokenError(description: "unsupported token_type \"\(tokenType)\"")
        }
    }

    /// An ID token's claims once its signature (a key of the provider's JWKS, by `kid`), issuer,
    /// audience, expiry and nonce check out.
    private func verifiedClaims(
        _ idToken: String, nonce: String, now: Double, fetch: (String, String?) -> ServerReply?
    ) throws(SocialTokenError) -> JSONObject {
        let unverified: JWS.Unverified
        do { unverified = try JWS.parse(idToken) } catch {
            throw SocialTokenError(description: "the ID token is not a JWT")
        }
        let jwksURL = string("jwksUriEndpoint")
        guard !jwksURL.isEmpty, let reply = fetch(jwksURL, nil), reply.status == 200,
            let keys = reply.body["keys"]?.arrayValue
        else { throw SocialTokenError(description: "the provider's JWKS could not be read from \(jwksURL)") }
        let kid = unverified.header["kid"]?.stringValue
        let candidates = keys.compactMap { $0.objectValue }.filter { kid == nil || $0["kid"]?.stringValue == kid }
        let verified = candidates.contains { json in
            guard let jwk = try? JWK(json: json) else { return false }
            return (try? unverified.verify(allowed: [.es256, .rs256], key: JWS.VerificationKey(jwk.key))) != nil
        }
        guard verified else { throw SocialTokenError(description: "the ID token's signature does not verify") }
        guard case .object(let claims)? = try? JSONParser.parse(unverified.payload) else {
            throw SocialTokenError(description: "the ID token's claims are not a JSON object")
        }
        let issuer = string("issuer")
        if !issuer.isEmpty, claims["iss"]?.stringValue != issuer {
            throw SocialTokenError(description: "the ID token's issuer is not \(issuer)")
        }
        let audience = claims["aud"]?.stringValue.map { [$0] } ?? claims["aud"]?.arrayValue?.compactMap(\.stringValue)
        guard audience?.contains(string("clientId")) == true else {
            throw SocialTokenError(description: "the ID token is not for client \(string("clientId"))")
        }
        guard let exp = claims["exp"]?.doubleValue, now < exp else {
            throw SocialTokenError(description: "the ID token has expired")
        }
        if !nonce.isEmpty, claims["nonce"]?.stringValue != nonce {
            throw SocialTokenError(description: "the ID token's nonce is not the one AM sent")
        }
        return claims
    }
}

/// What the provider's normalization script and the node's transformation script make of a
/// profile. AuthBridge does not run scripts; these follow AM's default ones: the provider's
/// `*-profile-normalization` (id, displayName, givenName, familyName, photoUrl, email,
/// username = e-mail) and "Normalized Profile to Managed User" (givenName, sn, mail, userName).
enum SocialProfileMapping {
    static func normalized(_ profile: SocialProfile, provider: String) -> JSONObject {
        let c = profile.claims
        func text(_ value: JSONValue?) -> JSONValue? { value?.stringValue.flatMap { $0.isEmpty ? nil : .string($0) } }
        var out: JSONObject = ["id": .string(profile.subject)]
        out["displayName"] = text(c["name"])
        out["givenName"] = text(c["given_name"] ?? c["first_name"] ?? profile.appleUser?["name"]?["firstName"])
        out["familyName"] = text(c["family_name"] ?? c["last_name"] ?? profile.appleUser?["name"]?["lastName"])
        out["photoUrl"] = text(c["picture"]) ?? text(c["picture"]?["data"]?["url"])
        let email = text(c["email"] ?? profile.appleUser?["email"])
        out["email"] = email
        out["username"] = email ?? .string(provider + "-" + profile.subject)
        return out
    }

    static func managedUser(_ normalized: JSONObject) -> JSONObject {
        var user: JSONObject = [:]
        user["givenName"] = normalized["givenName"]
        user["sn"] = normalized["familyName"]
        user["mail"] = normalized["email"]
        user["userName"] = normalized["username"]
        return user
    }
}
