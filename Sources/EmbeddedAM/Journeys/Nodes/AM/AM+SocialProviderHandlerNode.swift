import AuthBridgeCore

extension AM {
    /// AM's Social Provider Handler node (`SocialProviderHandlerNode`, ForgeRock/am-external
    /// `openam-auth-trees/auth-nodes/src/main/java/org/forgerock/openam/auth/nodes/SocialProviderHandlerNode.java`)
    /// with `clientType` NATIVE: the provider the Select Identity Provider node put in shared state
    /// (`selectedIdp`; none is a node error, and so is a name the export's
    /// `socialIdentityProviders` lacks) gets an IdPCallback built from its config (client id,
    /// redirect URI, scopes, ACR values, and a fresh nonce when `enableNativeNonce`). The answer's
    /// `token` and `token_type` are checked with the provider the way AM's OAuth clients do
    /// (`SocialProviderClient`): an ID token against the provider's JWKS, issuer, audience,
    /// expiry and nonce; an access token by the provider's user-info endpoint; an authorization
    /// code (Apple's form_post on Android: `form_post_entry`, the code in the request's
    /// parameters) redeemed at the provider's token endpoint for an ID token. The profile is
    /// normalized and mapped to the user's attributes (`SocialProfileMapping`), which go to
    /// transient `objectAttributes` with `aliasList` = [`<provider>-<subject>`]; the user whose
    /// `aliasList` holds that alias is the account. `ACCOUNT_EXISTS` sets `username` to it;
    /// `NO_ACCOUNT` sets `username` and `objectAttributes.<usernameAttribute>` to the mapped one,
    /// for Identify Existing User (link by e-mail, then Patch Object) or Create Object (provision).
    /// A bad or missing token is a node error (AM's `OAuthException`). `clientType` BROWSER sends
    /// the browser to the provider's page, which AuthBridge does not emulate: a node error saying so.
    struct SocialProviderHandlerNode: JourneyNode {
        static let type = NodeType(name: "SocialProviderHandlerNode") {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            let script = try s.string("script")
            let usernameAttribute = try s.string("usernameAttribute", default: "userName")
            let clientType = try s.string("clientType", default: "BROWSER")
            guard ["NATIVE", "BROWSER"].contains(clientType) else {
                throw SettingsError(reason: "\"clientType\" must be NATIVE or BROWSER, not \"\(clientType)\"")
            }
            return .node(
                SocialProviderHandlerNode(
                    nodeId: source.nodeId, displayName: source.displayName,
                    providers: source.socialProviders, script: script.flatMap(source.scriptName) ?? script,
                    usernameAttribute: usernameAttribute, native: clientType == "NATIVE"))
        }

        static let typeName = "SocialProviderHandlerNode"

        /// Its own id and name, by which a scenario gives its transformation script's result.
        var nodeId: String
        var displayName: String?
        var providers: [AMSocialProvider]
        /// The transformation script's name: not run (scripts need AM's bindings). A scenario's
        /// `response` body for this node (an object) stands for what it returns; without one, AM's
        /// default "Normalized Profile to Managed User" mapping does.
        var script: String?
        var usernameAttribute: String
        var native: Bool
        var outcomes: [String] { ["ACCOUNT_EXISTS", "NO_ACCOUNT"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let selected = context.shared[AM.SelectIdPNode.selectedKey]?.stringValue else {
                return AMFailure.nodeError(&context, Self.typeName, "selectedIdp not found in state")
            }
            guard let provider = providers.first(where: { $0.name == selected }) else {
                return AMFailure.nodeError(&context, Self.typeName, "Selected provider does not exist.")
            }
            guard native else {
                return AMFailure.nodeError(
                    &context, Self.typeName,
                    "clientType BROWSER redirects to \(selected)'s sign-in page, which AuthBridge does not emulate; set clientType NATIVE for the app's provider SDKs"
                )
            }
            let client = SocialProviderClient(name: selected, config: provider.config)
            guard let answer = context.answers?.first else {
                let nonce = client.usesNonce ? Base64URL.encode(context.random.bytes(24)) : ""
                context.nodeState["nonce"] = .string(nonce)
                return .send(Step(callbacks: [.idP(client.callbackRequest(nonce: nonce))]))
            }
            let token = JourneyValues.text(answer.inputs["token"])
            let tokenType = JourneyValues.text(answer.inputs["token_type"])
            let nonce = JourneyValues.text(context.nodeState["nonce"])
            let providers = context.socialProviders
            let network = ProviderNetwork(
                get: { url, bearer in providers?.get(url, bearer: bearer) },
                post: { url, form in providers?.post(url, form: form) })
            let profile: SocialProfile
            do {
                profile = try client.profile(
                    token: token, tokenType: tokenType, nonce: nonce, parameters: context.requestParameters,
                    now: context.clock.now, network: network)
            } catch {
                return AMFailure.nodeError(
                    &context, Self.typeName, "\(selected): \(error.description)", code: "social_token_refused",
                    ["provider": .string(selected)])
            }
            return handleUser(profile, provider: selected, &context)
        }

        /// AM's `handleUser`: the mapped attributes into transient state, the alias, the account.
        private func handleUser(_ profile: SocialProfile, provider: String, _ context: inout NodeContext) -> NodeAction
        {
            let normalized = SocialProfileMapping.normalized(profile, provider: provider)
            var mapped = SocialProfileMapping.managedUser(normalized)
            if case .reply(_, .object(let scripted))? = context.scenario?.response(
                journey: context.journeyName, node: nodeId, displayName: displayName)
            {
                mapped = scripted
            }
            let identity = provider + "-" + profile.subject
            var transient = context.transient["objectAttributes"]?.objectValue ?? [:]
            for member in mapped.members where member.key != usernameAttribute {
                transient[member.key] = member.value
            }
            let user = context.users.find(aliasListContaining: identity)
            var aliases: [JSONValue] = [.string(identity)]
            for alias in user?.attributes["aliasList"]?.arrayValue ?? [] where !aliases.contains(alias) {
                aliases.append(alias)
            }
            transient["aliasList"] = .array(aliases)
            context.transient["objectAttributes"] = .object(transient)
            let username = user?.username ?? JourneyValues.text(mapped[usernameAttribute])
            context.shared.set(path: "objectAttributes." + usernameAttribute, to: .string(username))
            if !username.isEmpty { context.shared["username"] = .string(username) }
            guard user != nil else {
                context.failureReason = JourneyFailure.Reason(
                    "no_account", "no account is linked to this \(provider) identity", ["provider": .string(provider)])
                return .outcome("NO_ACCOUNT")
            }
            return .outcome("ACCOUNT_EXISTS")
        }
    }
}

extension AM.SocialProviderHandlerNode: ScenarioNamed {}

extension JourneyDefinition {
    /// The Social Provider Handler nodes, whose transformation script's result a scenario gives.
    var socialProviderNodes: [AM.SocialProviderHandlerNode] {
        nodes.values.compactMap { $0.node as? AM.SocialProviderHandlerNode }
    }
}
