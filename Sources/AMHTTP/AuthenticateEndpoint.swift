import AuthBridgeCore
import HTTPServer
import IdentityServer

/// `POST …/json/realms/root/realms/<realm>/authenticate`: journeys over HTTP. The first call
/// names the journey (`authIndexType`/`authIndexValue`, or `suspendedId` to resume); later calls
/// post the step back and are routed by its authId, never by the query (the JS SDK repeats the
/// query on every call, the iOS SDK does not). The session cookie and `ForceAuth` go to the
/// server, which decides whether the session already satisfies the journey (`JourneyEngine`).
extension AMRoutes {
    static let authenticateVersions = ["2.0", "2.1"]

    func authenticate(_ request: HTTPRequest) throws(TransportError) -> HTTPResponse {
        let version: String
        switch APIVersion.negotiate(request.header("Accept-API-Version"), supported: Self.authenticateVersions) {
        case .success(let chosen): version = chosen
        case .failure(let refusal): return refusal.response
        }
        let headers = [APIVersion.header(version), AMResponse.noStore]
        let query = request.queryParameters
        var call = AuthenticateRequest(
            authIndexType: query["authIndexType"], authIndexValue: query["authIndexValue"],
            suspendedId: query["suspendedId"].flatMap { $0.isEmpty ? nil : $0 },
            noSession: query["noSession"]?.lowercased() == "true",
            ssoToken: request.ssoToken(cookieName: config.cookieName),
            forceAuth: query["ForceAuth"]?.lowercased() == "true")
        // What a callback's interceptor adds (Apple's form_post fields) reaches the nodes, as AM's
        // `context.request.parameters`; the parameters read above are the endpoint's own.
        let own: Set<String> = ["authIndexType", "authIndexValue", "suspendedId", "noSession", "ForceAuth", "realm"]
        for (name, value) in query where !own.contains(name) { call.parameters[name] = value }
        switch request.jsonBody {
        case .invalid: return AMResponse.error(400, "The request body is not a JSON object", headers: headers)
        case .object(let body) where body["authId"] != nil: call.payload = body
        case .object, .none: break
        }
        if call.payload == nil, call.suspendedId == nil, call.authIndexType == "composite_advice" {
            switch CompositeAdvice.parse(call.authIndexValue ?? "") {
            case .journey(let name):
                call.authIndexType = "service"
                call.authIndexValue = name
            case .unsupported(let what):
                return AMResponse.error(400, "Unsupported composite advice: \(what)", headers: headers)
            }
        }
        return AMResponse.from(try server.authenticate(call), headers: headers)
    }
}
