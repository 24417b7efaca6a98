import AuthBridgeCore

/// What the SDK reports to the bridge. `message` is the text the iOS SDK's
/// `localizedDescription` gives, which the bridges pass on as the rejection message.
public enum SDKError: Error, Equatable, Sendable {
    case notStarted
    case userAlreadyAuthenticated
    /// AM answered `/authenticate` with an error body (401 Login failure, 110 timeout…).
    case authenticationFailed(body: JSONValue)
    /// The OAuth part failed (authorize, token, userinfo): AM's `error` and `error_description`.
    case oauth(error: String, description: String)
    /// Credentials were cleared because the server no longer honours them.
    case authenticationRequired
    case noCurrentUser
    case transport(String)

    public var message: String {
        switch self {
        case .notStarted: return "SDK not initialized; please check the log for details"
        case .userAlreadyAuthenticated: return "User is already authenticated"
        case .authenticationFailed(let body): return body["message"]?.stringValue ?? "Login failure"
        case .oauth(let error, let description): return description.isEmpty ? error : description
        case .authenticationRequired: return "User authentication is required"
        case .noCurrentUser: return "No current user"
        case .transport(let message): return message
        }
    }
}
