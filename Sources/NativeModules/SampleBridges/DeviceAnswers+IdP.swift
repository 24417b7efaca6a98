import AuthBridgeCore
import IdentityServer
import NativeSDK

/// Social sign-in on the app's side: the native SDK's IdP handlers (ping-ios `ExternalIdPGoogle`,
/// `ExternalIdPApple`, `ExternalIdPFacebook`; ping-android `external-idp` `GoogleHandler.kt`,
/// `FacebookHandler.kt`, `journey/AppleHandler.kt`) with the provider SDKs they drive, signing in
/// at the emulated provider (`socialSignIn`). One piece for `RNPingExternalIdp.authorizeForJourney`
/// and for the sample bridges' `--callbacks complete`.
extension DeviceAnswers {
    /// What a handler gives the IdPCallback (`IdpResult` and the handler's `tokenType`), and the
    /// value the callback then submits as `token`.
    public struct IdPAuthorization: Equatable, Sendable {
        public var token: String
        public var tokenType: String
        /// iOS: nil, or Apple's `acceptsJSON` (its response as JSON); Android: always a map.
        public var additionalParameters: [(String, String)]?
        /// What the callback's `token` input gets: the token, or on iOS, for a callback that
        /// `acceptsJSON`, Apple's response JSON.
        public var submittedToken: String

        public static func == (a: Self, b: Self) -> Bool {
            a.token == b.token && a.tokenType == b.tokenType && a.submittedToken == b.submittedToken
                && a.additionalParameters?.map { [$0.0, $0.1] } == b.additionalParameters?.map { [$0.0, $0.1] }
        }
    }

    /// Why a handler gave no token: the native SDK's exception kinds (iOS `IdpExceptions`,
    /// Android `UnsupportedIdPException`, `IllegalArgumentException`, `IllegalStateException`).
    public enum IdPFailure: Error, Equatable, Sendable {
        /// No handler for the provider's name (Android: "Unsupported provider: …").
        case unsupportedProvider(String)
        /// The provider gave nothing (no account signed in, no client id).
        case providerRefused(String)
        /// A flow the daemon cannot emulate (a remote server: no emulated provider).
        case notEmulated(String)
    }

    /// Signs in at the provider an IdPCallback (AM's JSON) names, as `platform`'s handler does.
    public func authorizeIdP(callback: JSONValue, platform: Platform) throws(IdPFailure) -> IdPAuthorization {
        func output(_ name: String) -> JSONValue? {
            callback["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
        }
        let provider = output("provider")?.stringValue ?? ""
        guard let kind = SocialProviderKind(providerName: provider, acceptsSiwa: platform == .ios) else {
            throw .unsupportedProvider(provider)
        }
        let credential = try providerSignIn(
            SocialSignInRequest(
                kind: kind, clientId: output("clientId")?.stringValue ?? "",
                scopes: output("scopes")?.arrayValue?.compactMap(\.stringValue) ?? [],
                nonce: output("nonce")?.stringValue ?? ""))
        let empty: [(String, String)]? = platform == .android ? [] : nil
        switch kind {
        case .google, .facebook:
            let token = (kind == .google ? credential.idToken : credential.accessToken) ?? ""
            return IdPAuthorization(
                token: token, tokenType: kind == .google ? "id_token" : "access_token", additionalParameters: empty,
                submittedToken: token)
        case .apple where platform == .android:
            // `journey/AppleHandler.kt`: the browser tab goes to Apple, Apple form_posts to AM's
            // `redirectUri`, which sends the browser back to the app with Apple's fields as query
            // parameters; the result is `form_post_entry` with them, which the callback's
            // interceptor adds to the next request for AM to redeem the code.
            var parameters: [(String, String)] = [("code", credential.authorizationCode ?? "")]
            parameters.append(("id_token", credential.idToken ?? ""))
            if let user = credential.user { parameters.append(("user", JSONWriter().string(user))) }
            return IdPAuthorization(
                token: "form_post_entry", tokenType: "authorization_code", additionalParameters: parameters,
                submittedToken: "form_post_entry")
        case .apple:
            let idToken = credential.idToken ?? ""
            // ExternalIdPApple `SIWAHelpers.swift` `AppleSignInResponse`, JSON-encoded: code,
            // id_token, user {name {firstName, lastName}, email}.
            var response: JSONObject = [:]
            response["code"] = credential.authorizationCode.map(JSONValue.string)
            response["id_token"] = .string(idToken)
            if case .object(let user)? = credential.user {
                var apple: JSONObject = [:]
                apple["name"] = user["name"]
                apple["email"] = user["email"] ?? ""
                response["user"] = .object(apple)
            }
            let json = JSONWriter().string(.object(response))
            let acceptsJSON = output("acceptsJSON")?.boolValue ?? false
            return IdPAuthorization(
                token: idToken, tokenType: "id_token", additionalParameters: [("acceptsJSON", json)],
                submittedToken: acceptsJSON ? json : idToken)
        }
    }

    /// The provider's SDK on the phone signing in at the emulated provider (Google Sign-In,
    /// Sign in with Apple, Facebook Login), for a journey's IdPCallback or a DaVinci IdP collector.
    public func providerSignIn(_ request: SocialSignInRequest) throws(IdPFailure) -> SocialCredential {
        guard let socialSignIn else {
            throw .notEmulated(
                "no emulated \(request.kind.rawValue) provider: social sign-in needs the embedded server")
        }
        do throws(SocialSignInError) {
            return try socialSignIn.signIn(request)
        } catch {
            switch error {
            case .missingClientId: throw .providerRefused("Client ID is required.")
            case .noAccount(let kind): throw .providerRefused("No \(kind.rawValue) account is signed in on the device")
            }
        }
    }

    /// `--callbacks complete`: a SelectIdPCallback JS left empty takes the first offered provider
    /// the old bridge can finish (`completes`); an IdPCallback without a token is signed in and answered
    /// (`token`, `token_type`). A handler that fails leaves the callback as it was, so AM refuses it.
    func answerIdP(_ node: inout Node, platform: Platform) {
        for index in node.callbacks.indices {
            switch node.callbackType(at: index) {
            case .selectIdP?:
                guard Self.isBlank(Self.inputValue(node, index)) else { continue }
                let offered = Self.output(node, index, "providers")?.arrayValue ?? []
                let names = offered.compactMap { $0["provider"]?.stringValue }
                if let name = names.first(where: { Self.completes($0, platform: platform) }) {
                    _ = node.setInput(callback: index, inputIndex: 0, to: .string(name))
                }
            case .idP?:
                // The old SDK's node carries no request parameters, so Apple's form_post result
                // on Android cannot reach AM: that callback is left as JS left it.
                guard Self.isBlank(Self.inputValue(node, index)),
                    let answer = try? authorizeIdP(callback: node.callbacks[index], platform: platform),
                    answer.tokenType != "authorization_code"
                else { continue }
                _ = node.setInput(callback: index, inputIndex: 0, to: .string(answer.submittedToken))
                _ = node.setInput(callback: index, inputIndex: 1, to: .string(answer.tokenType))
            default:
                continue
            }
        }
    }

    /// Whether the old bridge can finish a sign-in with this provider: it has a handler, and it is
    /// not Apple on Android, whose form_post result the old SDK's node cannot carry to AM.
    private static func completes(_ provider: String, platform: Platform) -> Bool {
        guard let kind = SocialProviderKind(providerName: provider, acceptsSiwa: platform == .ios) else { return false }
        return !(kind == .apple && platform == .android)
    }

    /// An input JS left empty: absent, null, or "".
    private static func isBlank(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return true
        case .string(let text)?: return text.isEmpty
        default: return false
        }
    }
}
