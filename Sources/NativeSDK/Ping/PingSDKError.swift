/// How the Ping SDK's OIDC layer fails (ping-ios `OidcError`, ping-android `OidcError`/`ApiException`):
/// the authorize step refused or could not run, the server answered an API call with an error,
/// or it could not be reached.
public enum PingSDKError: Error, Equatable, Sendable {
    case authorize(String)
    case api(status: Int, message: String)
    case network(String)

    public var message: String {
        switch self {
        case .authorize(let message), .network(let message), .api(_, let message): return message
        }
    }
}
