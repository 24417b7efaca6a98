import AuthBridgeCore
import IdentityServer
import NativeSDK

/// `authorizeForDaVinci(davinciId, options, config)`: the IdP collector at `options.index` of the
/// DaVinci flow's current form signs in, and its resume request waits for `RNPingDavinci.next`,
/// which sends it instead of the form (the collector's `RequestInterceptor`); the promise resolves
/// void, the token never reaches JS (`RNPingExternalIdpCommon.authorizeForDaVinci` on each
/// platform, over ping-ios `ExternalIdP/ExternalIdP/IdpCollector.swift` and ping-android
/// `external-idp/…/davinci/IdpCollector.kt`).
extension RNPingExternalIdpModule {
    /// The native handler each platform picks by the collector's exact `idpType` (the provider's
    /// SDK after a fetch of the link, `IdpRequestHandler`): iOS has them for Apple, Google and
    /// Facebook (`getDefaultIdpHandler`), Android for Google and Facebook (`getRequestHandler`:
    /// Apple goes through the browser there); any other type is the browser.
    static let nativeHandlers: [Platform: [String: SocialProviderKind]] = [
        .ios: ["APPLE": .apple, "GOOGLE": .google, "FACEBOOK": .facebook],
        .android: ["GOOGLE": .google, "FACEBOOK": .facebook],
    ]

    func authorizeForDaVinci(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        let (id, index, _) = try Self.call("authorizeForDaVinci", args, ["davinciId", "options", "config"])
        guard !id.trimmingSpaces.isEmpty else {
            throw Self.reject(
                .callbackNotFound, .argument, "DaVinci id must not be empty for external IdP authorization.")
        }
        guard let client = davincis[id]?.client else {
            throw Self.reject(.callbackNotFound, .state, dialect.noDaVinci(id, index: index))
        }
        let done: Bool? = try davincis.updateNode(id) { node throws(BridgeError) -> Bool in
            let idps = node.collectors.indices.filter { node.collectors[$0].kind == .idp }
            guard index >= 0, index < idps.count else { return false }
            let position = idps[index]
            node.collectors[position].resumeRequest = try resumeRequest(
                for: node.collectors[position], in: node, client: client)
            return true
        }
        switch done {
        case nil: throw Self.reject(.callbackNotFound, .state, dialect.noDaVinci(id, index: index))
        case false?: throw Self.reject(.callbackNotFound, .state, ExternalIdpDialect.noCollector(id, index: index))
        case true?: return .null
        }
    }

    /// The collector's sign-in by the handler its platform picks; the request that resumes the flow.
    private func resumeRequest(
        for collector: DavinciCollector, in node: DavinciContinueNode, client: PingDavinciClient
    ) throws(BridgeError) -> DavinciRequest {
        let link = collector.field["links"]?["authenticate"]?["href"]?.stringValue ?? ""
        let idpType = collector.field["idpType"]?.stringValue ?? ""
        guard let kind = Self.nativeHandlers[sdk.platform]?[idpType] else {
            return try browserSignIn(link, node: node, client: client)
        }
        let idpClient: DavinciIdpClient
        do throws(TransportError) {
            idpClient = try client.fetchIdpClient(link)
        } catch {
            throw dialect.rejection(.fetchFailed(error.message))
        }
        let credential: SocialCredential
        do throws(DeviceAnswers.IdPFailure) {
            credential = try device.providerSignIn(
                SocialSignInRequest(
                    kind: kind, clientId: idpClient.clientId, scopes: idpClient.scopes, nonce: idpClient.nonce))
        } catch {
            throw dialect.rejection(error)
        }
        // iOS checks the link's `next` before it builds the request; Android sends it as given.
        if sdk.platform == .ios, idpClient.continueUrl.isEmpty { throw dialect.rejection(.noContinueUrl) }
        // Google and Apple hand over the ID token, Facebook its access token (the handlers).
        let body: JSONValue =
            kind == .facebook
            ? ["accessToken": .string(credential.accessToken ?? "")]
            : ["idToken": .string(credential.idToken ?? "")]
        return DavinciRequest(
            method: "POST", url: idpClient.continueUrl,
            headers: ["accept": "application/json", "content-type": "application/json"], json: body)
    }

    /// The browser's way (ping-ios `Handlers/BrowserHandler.swift`, ping-android
    /// `davinci/BrowserRequestHandler.kt`): the link opened in an ephemeral browser, the
    /// `continueToken` of the redirect back, posted as a bearer token to the form's
    /// `_links.continue.href`. Android reads that link before it opens the browser; iOS after.
    private func browserSignIn(
        _ link: String, node: DavinciContinueNode, client: PingDavinciClient
    ) throws(BridgeError) -> DavinciRequest {
        let continueUrl = node.input["_links"]?["continue"]?["href"]?.stringValue
        if sdk.platform == .android, continueUrl == nil { throw dialect.rejection(.noContinueUrl) }
        guard let location = client.openInBrowser(link) else { throw dialect.rejection(.browserCancelled) }
        let token: String
        switch sdk.platform {
        case .ios:
            guard let found = PercentEncoding.queryParameters(of: location)["continueToken"], continueUrl != nil else {
                throw dialect.rejection(.browserCancelled)
            }
            token = found
        case .android:
            // `substringAfter("continueToken=").substringBefore("&")`: the whole URL when absent.
            token = String(Self.after("continueToken=", in: location).prefix { $0 != "&" })
        }
        // iOS posts an empty JSON body; Android's `post()` none.
        var headers = ["authorization": "Bearer \(token)"]
        if sdk.platform == .ios { headers["content-type"] = "application/json" }
        return DavinciRequest(
            method: "POST", url: continueUrl ?? "", headers: headers, json: sdk.platform == .ios ? .object([:]) : nil)
    }

    /// Kotlin's `substringAfter(marker)`: what follows its first occurrence, else the whole text.
    static func after(_ marker: String, in text: String) -> Substring {
        let characters = Array(text.utf8)
        let needle = Array(marker.utf8)
        guard !needle.isEmpty, characters.count >= needle.count else { return text[...] }
        for start in 0...(characters.count - needle.count)
        where characters[start..<start + needle.count].elementsEqual(needle) {
            let index = text.utf8.index(text.utf8.startIndex, offsetBy: start + needle.count)
            return text[index...]
        }
        return text[...]
    }
}
