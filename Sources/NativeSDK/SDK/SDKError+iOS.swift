import AuthBridgeCore

extension SDKError {
    /// What the iOS SDK's `localizedDescription` says for this error (forgerock-ios-sdk
    /// `AuthApiError`, `AuthError`, `ConfigError`, `OAuth2Error`; 4.6–4.8). The iOS bridges pass
    /// it on as the rejection message; it is not always AM's message:
    /// - an AM body with `detail.errorCode` "110" is `authenticationTimout`: "Authentication timed out";
    /// - a `SuspendedAuthSessionException` message loses its class-name prefix (a leading space stays);
    /// - a body without both `message` and `reason` is `apiRequestFailure`: "Request failed";
    /// - an OAuth error without a description takes `OAuth2Error`'s default text for its code.
    public var iosMessage: String {
        switch self {
        case .notStarted: return "Invalid SDK State: initialize SDK using FRAuth.start() first"
        case .userAlreadyAuthenticated: return "User is already authenticated"
        case .authenticationFailed(let body):
            guard case .string(let message)? = body["message"], body["reason"]?.stringValue != nil else {
                return "Request failed"
            }
            if body["detail"]?["errorCode"] == "110" { return "Authentication timed out" }
            let suspended = "org.forgerock.openam.auth.nodes.framework.token.SuspendedAuthSessionException:"
            if message.contains(suspended) { return message.replacingOccurrences(of: suspended, with: "") }
            return message
        case .oauth(let error, let description):
            return description.isEmpty ? Self.oauthDefaultText[error] ?? "OAuth2 /authorize Error" : description
        case .authenticationRequired:
            return "All user credentials are expired or invalid; user authentication is required"
        case .noCurrentUser, .transport: return message
        }
    }

    /// `OAuth2Error`'s texts when AM gives no `error_description`.
    private static let oauthDefaultText = [
        "invalid_request": "Invalid /authorize request", "invalid_client": "Invalid client",
        "invalid_grant": "Invalid grant",
        "unauthorized_client": "Unauthorized client", "unsupported_grant_type": "Unsupported grant_type",
        "unsupported_response_type": "Unsupported response_type", "invalid_scope": "Invalid scope",
        "access_denied": "Resource owner did not authorize the request",
    ]
}

extension String {
    /// Every occurrence of `target` replaced, without Foundation.
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
