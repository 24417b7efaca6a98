import AuthBridgeCore
import HTTPFace
import Host
import JSONRPC
import NativeModules
import RemoteConfig

/// Command-line options: the world the Host builds, and how the stdio face frames and logs.
/// Hand-parsed: the project takes no third-party packages.
struct Options {
    var host = HostConfiguration()
    var logLevel = LogLevel.warn
    var maxFrameBytes = 1024 * 1024
    /// `--max-queued-output`: output queued for a host not reading stdout past which the stdio
    /// face handles the next request of a chunk of input only once the host reads
    /// (`OutputQueue.defaultBound`).
    var maxQueuedOutput = OutputQueue.defaultBound
    var maxDepth = JSONParser.defaultMaxDepth
    var framing: Framing?
    var banner = false
    /// `--trace FILE`: the request/response/event trace goes to FILE instead of stderr.
    var traceFile: String?
    /// `--help`/`-h` or `--version`: print and exit 0, no protocol.
    var action: Action = .serve

    enum Action: Equatable { case serve, help, version }
    /// `--http`: where the HTTP face listens; `--no-stdio` serves only it; `--cors-origin`.
    var http: Sockets.Endpoint?
    var noStdio = false
    var corsOrigins: [String] = []
    /// `--http-request-timeout`: how long one HTTP request may take to arrive, head and body
    /// (nil: the listener's default).
    var httpRequestSeconds: Double?
    /// `--redirect-uri`, in order: the tenant's app's one, or more for the embedded client.
    var redirectUris: [String] = []
    /// `--post-logout-redirect-uri`, in order: the embedded client's Post Logout Redirect URIs.
    var postLogoutRedirectUris: [String] = []
    /// `--server`, `--config` and their companions: a real tenant (docs/remote.md).
    var remote = RemoteFlags()

    static let supportedFlavors = Flavor.allCases.map(\.rawValue)
    /// The deepest JSON nesting `--max-depth` may allow (a debug build's stack holds ~2,000).
    static let maxDepthCap = 1000

    struct UsageError: Error { var message: String }

    static let usage = """
        usage: authbridge [options]

        The native side of a ForgeRock/Ping React Native app as a process: JSON-RPC 2.0 on
        stdin/stdout (NDJSON, or Content-Length framing detected from the first byte).
        Logs go to stderr.

        options:
          --flavor NAME          platform contract to emulate: rn-ios (default), rn-android,
                                 flutter-ios, flutter-android
          --seed N               generate every id, token and code from seed N (replayable output)
          --clock system|virtual[=EPOCH]
                                 real time (default), or time that stands still until
                                 emulator.advanceClock (EPOCH in Unix seconds up to the year
                                 9999, default 1767225600)
          --framing ndjson|content-length
                                 force the framing instead of detecting it
          --max-frame-bytes N    largest accepted frame (default 1048576)
          --max-depth N          deepest accepted JSON nesting (default 64, at most 1000)
          --max-queued-output N  bytes of stdout queued for a host that is not reading, past
                                 which the next request of a chunk of stdin is handled only
                                 once the host reads (default 1048576)
          --state-dir DIR        keep tokens, the SSO session, users and grants in DIR/state.json
                                 so they survive a restart (default: in memory only)
          --recover-state last-good
                                 start even when DIR's journal is damaged in the middle, from the
                                 records before the damage, keeping a copy of the files as they
                                 were beside them (without it such a start stops, changing nothing)
          --journeys PATH        more journeys: JSON or AM exports, a file or directory. Repeatable
          --scenario FILE, --unknown-nodes fail|scenario (docs/journeys.md)
          --davinci-flows FILE   more DaVinci flows for the PingOne server (docs/davinci.md). Repeatable
          --auth-service NAME    the journey login() starts (default Login)
          --registration-service NAME
                                 the journey register() starts (default Registration)
          --bridge sample|guide  which iOS bridge answers: the latest sample app's (default), or the
                                 one the ForgeRock guide "build a protected app" teaches (rn-ios)
          --callbacks sample|complete
                                 how next() applies JS values: as the flavor's sample bridge does
                                 (default), or as a bridge handling every callback type would
          --start-delay SECONDS  make start() wait, as the iOS sample's 2 s asyncAfter does (default 0)
          --log-level LEVEL      error, warn (default), info, debug, or trace: debug, plus every
                                 request, response (with its duration) and event, secrets redacted
          --trace FILE           write that trace to FILE (created, mode 0600) instead of stderr,
                                 whatever the log level
          --banner               print how to drive the daemon to stderr at start
          --http [HOST:]PORT     also serve AM's REST API over HTTP (docs/http.md), on 127.0.0.1
                                 unless HOST says otherwise; port 0 picks a free one. The URL is
                                 printed on stderr and reported by daemon.hello
          --config FILE          drive a real AM / Identity Cloud tenant configured by the app's own
                                 FRAuthConfig.plist, strings.xml or FROptions JSON (docs/remote.md)
          --server URL           drive the tenant at URL (https://tenant/am) instead of the embedded
                                 server; with --realm R --client-id C --redirect-uri U [--scope S]
                                 (these also override --config's values)
          --redirect-uri URI     with the embedded server: one more redirect URI its OAuth client
                                 accepts (exact match), such as a web app's own
                                 http://localhost:3000/callback (docs/http.md). Repeatable
          --post-logout-redirect-uri URI
                                 with the embedded server: one more URI /connect/endSession may send
                                 the browser to (post_logout_redirect_uri, exact match; a list of its
                                 own, empty by default, as AM's client keeps). Repeatable
          --max-session-time MINUTES, --max-idle-time MINUTES
                                 with the embedded server: how long an SSO session lives from its
                                 login, and without use, as AM's session service sets them
                                 (defaults 120 and 30); past either it is no longer valid
          --discovery URL        read the OAuth endpoints (authorize, token, userinfo, revoke,
                                 end session) from the tenant's .well-known/openid-configuration at
                                 URL, as FROptions' discoveryEndpoint does; journeys and sessions stay
                                 under --server's URL and realm
          --timeout SECONDS      how long one HTTP exchange with the tenant may take, from the request's
                                 first byte to the reply's last (default 60)
          --max-reply-bytes N    largest reply of the tenant read, header lines and body; a larger one
                                 fails the call as a transport error (default 4194304)
          --ca-file FILE         trust the PEM CA certificates in FILE for the tenant's TLS certificate
                                 instead of the system store (an AM with its own CA)
          --insecure             do not verify the tenant's TLS certificate at all (a local AM with
                                 a self-signed certificate); warns on stderr at start
          --no-stdio             serve only HTTP (needs --http) until SIGTERM
          --cors-origin ORIGIN   let a browser app at ORIGIN call the HTTP face with cookies. Repeatable
          --http-request-timeout SECONDS
                                 how long one HTTP request may take to arrive, head and body, from
                                 its first byte (default 10, at most 3600); past it: 408, closed
          --public-url URL       the server's base URL as clients reach it (http://127.0.0.1:8080/am):
                                 the issuer of tokens, discovery's endpoints and journey links use it
                                 instead of the address bound, whatever port --http 0 picks
          -h, --help             print this text and exit 0
          --version              print the version and the protocol version and exit 0
                                 (both print to stderr, like every other text: stdout is the
                                 protocol's alone)
        """

    static func parse(_ rawArguments: [String]) throws(UsageError) -> Options {
        // --flag=value is accepted as well as --flag value.
        let arguments = rawArguments.flatMap { argument -> [String] in
            guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else { return [argument] }
            return [String(argument[..<equals]), String(argument[argument.index(after: equals)...])]
        }
        var options = Options()
        var index = 0
        func value(_ flag: String) throws(UsageError) -> String {
            index += 1
            guard index < arguments.count else { throw UsageError(message: "\(flag) needs a value") }
            return arguments[index]
        }
        /// A value that may not be empty: `--trace ""` is a mistake, not a file named "".
        func nonEmpty(_ flag: String, needs what: String = "a value") throws(UsageError) -> String {
            let text = try value(flag)
            guard !text.isEmpty else { throw UsageError(message: "\(flag) needs \(what)") }
            return text
        }
        /// An absolute URI without a fragment, for `--redirect-uri` and `--post-logout-redirect-uri`.
        func redirectURI(_ flag: String) throws(UsageError) -> String {
            let uri = try value(flag)
            if let problem = RedirectURIFlag.problem(uri) {
                throw UsageError(message: RedirectURIFlag.usage(flag, uri, problem))
            }
            return uri
        }
        func positive(_ flag: String) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0 else {
                throw UsageError(message: "\(flag) needs a positive integer, got \(text)")
            }
            return number
        }
        /// AM's session times: whole minutes, at most a year's worth (a session's end must stay a
        /// representable date).
        func minutes(_ flag: String) throws(UsageError) -> Int {
            let text = try value(flag)
            guard let number = Int(text), number > 0, number <= 525_600 else {
                throw UsageError(message: "\(flag) needs whole minutes from 1 to 525600, got \(text)")
            }
            return number
        }
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--help", "-h":
                options.action = .help
                return options
            case "--version":
                options.action = .version
                return options
            case "--flavor":
                let name = try value(argument)
                guard let flavor = Flavor(rawValue: name) else {
                    throw UsageError(
                        message: "unknown flavor \(name) (available: \(supportedFlavors.joined(separator: ", ")))")
                }
                options.host.flavor = flavor
            case "--seed":
                let text = try value(argument)
                guard let seed = UInt64(text) else {
                    throw UsageError(message: "--seed needs a non-negative integer, got \(text)")
                }
                options.host.seed = seed
            case "--clock":
                options.host.clock = try parseClock(try value(argument))
            case "--framing":
                let text = try value(argument)
                guard let framing = Framing(rawValue: text) else {
                    throw UsageError(message: "--framing is ndjson or content-length, got \(text)")
                }
                options.framing = framing
            case "--max-frame-bytes": options.maxFrameBytes = try positive(argument)
            case "--max-queued-output": options.maxQueuedOutput = try positive(argument)
            case "--max-depth":
                // The parser recurses per level: far deeper nesting would overflow its stack.
                let depth = try positive(argument)
                guard depth <= maxDepthCap else {
                    throw UsageError(message: "--max-depth needs an integer from 1 to \(maxDepthCap), got \(depth)")
                }
                options.maxDepth = depth
            case "--start-delay":
                let text = try value(argument)
                guard let seconds = Double(text), seconds >= 0, seconds <= 60 else {
                    throw UsageError(message: "--start-delay needs seconds between 0 and 60, got \(text)")
                }
                options.host.startDelay = seconds
            case "--log-level":
                let text = try value(argument)
                guard let level = LogLevel(name: text) else {
                    throw UsageError(message: "--log-level is error, warn, info, debug or trace, got \(text)")
                }
                options.logLevel = level
            case "--trace":
                options.traceFile = try nonEmpty(argument, needs: "a file")
            case "--banner": options.banner = true
            case "--http":
                switch HTTPFace.endpoint(try value(argument)) {
                case .success(let endpoint): options.http = endpoint
                case .failure(let failure): throw UsageError(message: failure.message)
                }
            case "--max-session-time": options.host.maxSessionTime = Double(try minutes(argument)) * 60
            case "--max-idle-time": options.host.maxIdleTime = Double(try minutes(argument)) * 60
            case "--redirect-uri": options.redirectUris.append(try redirectURI(argument))
            case "--post-logout-redirect-uri": options.postLogoutRedirectUris.append(try redirectURI(argument))
            case "--config", "--server", "--realm", "--client-id", "--scope", "--discovery", "--timeout",
                "--max-reply-bytes",
                "--ca-file":
                options.remote.values[argument] = try nonEmpty(argument)
            case "--insecure": options.remote.insecure = true
            case "--no-stdio": options.noStdio = true
            case "--cors-origin":
                let origin = try value(argument)
                guard
                    origin == "*" || origin.lowercased().hasPrefix("http://")
                        || origin.lowercased().hasPrefix("https://"), !origin.hasSuffix("/")
                else {
                    throw UsageError(
                        message: "--cors-origin needs an origin such as http://localhost:3000 (no path), got \(origin)")
                }
                options.corsOrigins.append(origin)
            case "--http-request-timeout":
                let text = try value(argument)
                guard let seconds = Double(text), seconds > 0, seconds <= 3600 else {
                    throw UsageError(
                        message: "--http-request-timeout needs seconds above 0 and at most 3600, got \(text)")
                }
                options.httpRequestSeconds = seconds
            case "--public-url":
                switch HTTPFace.publicURL(try value(argument)) {
                case .success(let url): options.host.publicURL = url
                case .failure(let failure): throw UsageError(message: failure.message)
                }
            case "--state-dir":
                options.host.stateDirectory = try nonEmpty(argument, needs: "a directory")
            case "--recover-state":
                let text = try value(argument)
                guard let recovery = HostConfiguration.StateRecovery(rawValue: text), recovery != .refuse else {
                    throw UsageError(message: "--recover-state is last-good, got \(text)")
                }
                options.host.stateRecovery = recovery
            case "--journeys":
                options.host.journeyFiles.append(try nonEmpty(argument, needs: "a file or directory"))
            case "--davinci-flows":
                options.host.davinciFlowFiles.append(try nonEmpty(argument, needs: "a file"))
            case "--scenario":
                options.host.scenarioFile = try nonEmpty(argument, needs: "a file")
            case "--unknown-nodes":
                let text = try value(argument)
                guard text == "fail" || text == "scenario" else {
                    throw UsageError(message: "--unknown-nodes is fail or scenario, got \(text)")
                }
                options.host.unknownNodesAsScenario = text == "scenario"
            case "--auth-service": options.host.authServiceName = try value(argument)
            case "--registration-service": options.host.registrationServiceName = try value(argument)
            case "--callbacks":
                let text = try value(argument)
                guard let handling = CallbackHandling(rawValue: text) else {
                    throw UsageError(message: "--callbacks is sample or complete, got \(text)")
                }
                options.host.callbacks = handling
            case "--bridge":
                let text = try value(argument)
                guard let variant = BridgeVariant(rawValue: text) else {
                    throw UsageError(message: "--bridge is sample or guide, got \(text)")
                }
                options.host.variant = variant
            default:
                throw UsageError(message: "unknown option \(argument)")
            }
            index += 1
        }
        if options.host.variant == .guide, options.host.flavor != .reactNativeIOS {
            throw UsageError(
                message: "--bridge guide is the ForgeRock guide's iOS bridge: use it with --flavor rn-ios (the default)"
            )
        }
        if options.remote.isRequested {
            guard options.redirectUris.count <= 1 else {
                throw UsageError(
                    message:
                        "--redirect-uri is given \(options.redirectUris.count) times: a remote tenant's app has one redirect URI"
                )
            }
            options.remote.values["--redirect-uri"] = options.redirectUris.first
            guard options.host.maxSessionTime == nil, options.host.maxIdleTime == nil else {
                throw UsageError(
                    message:
                        "--max-session-time and --max-idle-time set the embedded server's sessions: a tenant's are set in its session service"
                )
            }
            guard options.postLogoutRedirectUris.isEmpty else {
                throw UsageError(
                    message:
                        "--post-logout-redirect-uri registers with the embedded server's client: a tenant's client has "
                        + "its own list (its Post Logout Redirect URIs, or Sign-out URLs in Identity Cloud)")
            }
        } else {
            options.host.redirectUris = options.redirectUris
            options.host.postLogoutRedirectUris = options.postLogoutRedirectUris
        }
        options.host.remote = try options.remote.settings()
        if options.host.remote != nil, options.http != nil {
            throw UsageError(
                message: "--http serves the embedded server: it cannot be combined with --server or --config")
        }
        if options.host.stateRecovery != .refuse, options.host.stateDirectory == nil {
            throw UsageError(message: "--recover-state recovers a --state-dir: it needs one")
        }
        if options.noStdio, options.http == nil {
            throw UsageError(message: "--no-stdio needs --http: there would be no face to serve")
        }
        if options.host.publicURL != nil, options.http == nil {
            throw UsageError(message: "--public-url names where the HTTP face is reached: it needs --http")
        }
        if options.httpRequestSeconds != nil, options.http == nil {
            throw UsageError(message: "--http-request-timeout bounds requests to the HTTP face: it needs --http")
        }
        return options
    }

    private static func parseClock(_ text: String) throws(UsageError) -> HostConfiguration.ClockMode {
        if text == "system" { return .system }
        if text == "virtual" { return .virtual(epoch: VirtualClock.defaultEpoch) }
        if text.hasPrefix("virtual="), let epoch = Double(text.dropFirst("virtual=".count)) {
            guard TimeBounds.contains(epoch) else {
                throw UsageError(
                    message:
                        "--clock virtual=EPOCH needs \(TimeBounds.description), got \(text.dropFirst("virtual=".count))"
                )
            }
            return .virtual(epoch: epoch)
        }
        throw UsageError(message: "--clock is system, virtual or virtual=EPOCH, got \(text)")
    }
}
