import AuthBridgeCore
import IdentityServer
import NativeModules
import StateStore

/// Everything the world is built from: which native side to be, how time and randomness behave,
/// which journeys the server runs, where state is kept. The executable fills it from its options;
/// tests build it directly.
public struct HostConfiguration: Sendable {
    public enum ClockMode: Equatable, Sendable {
        case system
        case virtual(epoch: Double)
    }

    public var flavor = Flavor.reactNativeIOS
    public var variant = BridgeVariant.sample
    public var seed: UInt64?
    public var clock = ClockMode.system
    public var stateDirectory: String?
    /// `--recover-state last-good`: a journal damaged in the middle is started from the records
    /// before the damage (a copy kept) instead of stopping the start.
    public var stateRecovery = StateRecovery.refuse
    /// Journey files or directories (AuthBridge's JSON or AM exports, told apart by content).
    public var journeyFiles: [String] = []
    /// DaVinci flow files for the PingOne server (`--davinci-flows FILE`, docs/davinci.md).
    public var davinciFlowFiles: [String] = []
    /// Outcomes for nodes AuthBridge cannot run (`--scenario FILE`).
    public var scenarioFile: String?
    /// `--unknown-nodes scenario`: node types AuthBridge does not know load as nodes a scenario
    /// decides, instead of stopping the start.
    public var unknownNodesAsScenario = false
    public var authServiceName = "Login"
    public var registrationServiceName = "Registration"
    public var callbacks = CallbackHandling.sample
    /// How long the iOS sample's `start()` waits before it resolves.
    public var startDelay: Double = 0
    /// `http://127.0.0.1:8080` when the HTTP face serves: the embedded server then lives at
    /// `<origin>/am`, the issuer its tokens and discovery name.
    public var httpOrigin: String?
    /// `--public-url`: the embedded server's base URL as clients reach it (`http://…/am`), named
    /// instead of `<httpOrigin>/am` so the issuer does not depend on the port bound.
    public var publicURL: String?
    /// Whether the faces record the inspector's timeline (`Timeline`): set when the HTTP face,
    /// which serves the inspector, is on loopback.
    public var recordsTimeline = false
    /// `--redirect-uri`: more redirect URIs the embedded server's OAuth client accepts (a web
    /// app's own), registered after its default, which the native side keeps sending.
    public var redirectUris: [String] = []
    /// `--post-logout-redirect-uri`: the embedded server's OAuth client's Post Logout Redirect
    /// URIs, where `/connect/endSession` may send the browser (empty by default, as AM's).
    public var postLogoutRedirectUris: [String] = []
    /// `--max-session-time`, `--max-idle-time`: the embedded server's SSO session lifetimes in
    /// seconds (nil: AM's defaults, 120 and 30 minutes).
    public var maxSessionTime: Double?
    public var maxIdleTime: Double?
    /// `--id-token-signing-alg`: the embedded server's OAuth client's "ID Token Signing
    /// Algorithm" (nil: RS256, AM's default).
    public var idTokenSigningAlgorithm: TokenSigningAlgorithm?
    /// A real tenant instead of the embedded server (`--server`, `--config`): `server.kind`
    /// remote. The executable supplies the client that talks to it (Host links no HTTP client).
    public var remote: RemoteServerSettings?
    /// `--import FILE`: a seed document (docs/seed.md) loaded at start, after the state directory.
    public var importFile: String?

    public init() {}

    /// What a start does with a journal damaged in the middle (`--recover-state`).
    public typealias StateRecovery = StateDirectory.Recovery

    /// Seeded and on the virtual clock: the same input gives byte-identical output.
    public var isDeterministic: Bool { seed != nil && clock != .system }
}
