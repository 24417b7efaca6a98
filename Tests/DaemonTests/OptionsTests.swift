import AuthBridgeCore
import Foundation
import Host
import Testing

@testable import Daemon

/// Every flag as `authbridge` reads it, and every refusal word for word: the text a user sees
/// above the usage when a start is refused.
@Suite struct OptionsTests {
    static func parse(_ arguments: [String]) throws(Options.UsageError) -> Options { try Options.parse(arguments) }

    /// The refusal `arguments` get, or nil when they are accepted.
    static func refusal(_ arguments: [String]) -> String? {
        do {
            _ = try Options.parse(arguments)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func noFlagsIsTheEmbeddedServerOnStdio() throws {
        let options = try Self.parse([])
        #expect(options.action == .serve)
        #expect(options.host.flavor.rawValue == "rn-ios")
        #expect(options.host.variant == .sample)
        #expect(options.host.seed == nil)
        #expect(options.host.clock == .system)
        #expect(options.host.remote == nil)
        #expect(options.logLevel == .warn)
        #expect(options.maxFrameBytes == 1024 * 1024)
        #expect(options.maxQueuedOutput == 1 << 20)
        #expect(options.maxDepth == 64)
        #expect(options.framing == nil)
        #expect(options.http == nil)
        #expect(!options.noStdio && !options.banner)
    }

    @Test func helpAndVersionStopParsing() throws {
        #expect(try Self.parse(["--help", "--nonsense"]).action == .help)
        #expect(try Self.parse(["-h"]).action == .help)
        #expect(try Self.parse(["--version"]).action == .version)
    }

    @Test func theWorldTheHostBuilds() throws {
        let options = try Self.parse([
            "--flavor", "flutter-android", "--seed", "7", "--clock", "virtual=1000", "--state-dir", "/tmp/s",
            "--journeys", "a.json", "--journeys=b", "--scenario", "sc.json", "--unknown-nodes", "scenario",
            "--auth-service", "Step", "--registration-service", "Join", "--callbacks", "complete", "--start-delay",
            "2.5",
            "--redirect-uri", "http://localhost:3000/callback", "--redirect-uri", "com.example.app:/cb",
        ])
        #expect(options.host.flavor.rawValue == "flutter-android")
        #expect(options.host.seed == 7)
        #expect(options.host.clock == .virtual(epoch: 1000))
        #expect(options.host.stateDirectory == "/tmp/s")
        #expect(options.host.journeyFiles == ["a.json", "b"])
        #expect(options.host.scenarioFile == "sc.json")
        #expect(options.host.unknownNodesAsScenario)
        #expect(options.host.authServiceName == "Step")
        #expect(options.host.registrationServiceName == "Join")
        #expect(options.host.callbacks == .complete)
        #expect(options.host.startDelay == 2.5)
        #expect(options.host.redirectUris == ["http://localhost:3000/callback", "com.example.app:/cb"])
        #expect(options.host.postLogoutRedirectUris == [], "a redirect URI is not a post-logout one")
        #expect(try Self.parse(["--clock", "virtual"]).host.clock == .virtual(epoch: VirtualClock.defaultEpoch))
        #expect(try Self.parse(["--clock", "system"]).host.clock == .system)
        #expect(try Self.parse(["--bridge", "guide"]).host.variant == .guide)
        #expect(try Self.parse(["--unknown-nodes", "fail"]).host.unknownNodesAsScenario == false)
        #expect(options.host.stateRecovery == .refuse)
        #expect(
            try Self.parse(["--state-dir", "/tmp/s", "--recover-state", "last-good"]).host.stateRecovery == .lastGood)
    }

    @Test func howTheStdioFaceFramesAndLogs() throws {
        let options = try Self.parse([
            "--framing", "content-length", "--max-frame-bytes", "4096", "--max-depth", "1000", "--log-level", "trace",
            "--max-queued-output", "65536",
            "--trace", "/tmp/trace.log", "--banner",
        ])
        #expect(options.framing == .contentLength)
        #expect(options.maxFrameBytes == 4096)
        #expect(options.maxQueuedOutput == 65536)
        #expect(options.maxDepth == 1000)
        #expect(options.logLevel == .trace)
        #expect(options.traceFile == "/tmp/trace.log")
        #expect(options.banner)
        #expect(try Self.parse(["--log-level", "warning"]).logLevel == .warn)
    }

    @Test func theHTTPFace() throws {
        let options = try Self.parse([
            "--http", "8080", "--no-stdio", "--cors-origin", "http://localhost:3000", "--cors-origin", "*",
            "--public-url", "http://127.0.0.1:8080/am/",
        ])
        #expect(options.http == Sockets.Endpoint(host: "127.0.0.1", port: 8080))
        #expect(options.noStdio)
        #expect(options.corsOrigins == ["http://localhost:3000", "*"])
        #expect(options.host.publicURL == "http://127.0.0.1:8080/am")
        #expect(options.httpRequestSeconds == nil)
        #expect(try Self.parse(["--http", "0", "--http-request-timeout", "0.5"]).httpRequestSeconds == 0.5)
        #expect(try Self.parse(["--http", "localhost:0"]).http == Sockets.Endpoint(host: "127.0.0.1", port: 0))
        #expect(try Self.parse(["--http", "0.0.0.0:9"]).http == Sockets.Endpoint(host: "0.0.0.0", port: 9))
    }

    @Test func postLogoutRedirectURIsAreTheirOwnList() throws {
        let options = try Self.parse([
            "--post-logout-redirect-uri", "http://localhost:3000/", "--redirect-uri", "http://localhost:3000/callback",
            "--post-logout-redirect-uri=com.example.app:/signedout",
        ])
        #expect(options.host.postLogoutRedirectUris == ["http://localhost:3000/", "com.example.app:/signedout"])
        #expect(options.host.redirectUris == ["http://localhost:3000/callback"])
        #expect(try Self.parse([]).host.postLogoutRedirectUris == [])
    }

    /// AM's session times, in AM's unit (minutes), kept in seconds; unset, the server's defaults.
    @Test func sessionTimesAreMinutes() throws {
        let options = try Self.parse(["--max-session-time", "240", "--max-idle-time=15"])
        #expect(options.host.maxSessionTime == 14_400)
        #expect(options.host.maxIdleTime == 900)
        #expect(try Self.parse([]).host.maxIdleTime == nil)
    }

    @Test func aRemoteTenantFromFlags() throws {
        let options = try Self.parse([
            "--server", "https://tenant.example.com/am/", "--realm", "alpha", "--client-id", "app",
            "--redirect-uri", "com.example.app:/cb", "--scope", "openid", "--timeout", "15",
            "--discovery", "https://tenant.example.com/am/oauth2/alpha/.well-known/openid-configuration", "--insecure",
        ])
        let remote = try #require(options.host.remote)
        #expect(remote.url == "https://tenant.example.com/am")
        #expect(remote.realm == "alpha")
        #expect(remote.oauthClientId == "app")
        #expect(remote.oauthRedirectUri == "com.example.app:/cb")
        #expect(remote.oauthScope == "openid")
        #expect(remote.timeout == 15)
        #expect(remote.maxReplyBytes == 4 * 1024 * 1024, "the default reply limit, 4 MiB")
        #expect(remote.discoveryURL == "https://tenant.example.com/am/oauth2/alpha/.well-known/openid-configuration")
        #expect(remote.insecure)
        #expect(options.host.redirectUris == [], "the tenant's redirect URI is not the embedded client's")
    }

    @Test func theReplyLimitIsAnOption() throws {
        let server = ["--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b"]
        #expect(try Self.parse(server + ["--max-reply-bytes", "1024"]).host.remote?.maxReplyBytes == 1024)
        #expect(try Self.parse(server + ["--max-reply-bytes=1073741824"]).host.remote?.maxReplyBytes == 1 << 30)
        for bad in ["1023", "1073741825", "4MiB", "-1", "+2048"] {
            #expect(
                Self.refusal(server + ["--max-reply-bytes", bad])
                    == "--max-reply-bytes needs a number of bytes between 1024 and 1073741824, got \(bad)")
        }
        #expect(
            Self.refusal(["--max-reply-bytes", "2048"])
                == "--max-reply-bytes applies to a remote tenant: give --server URL or --config FILE")
    }

    @Test func aCAFileMustHoldPEMCertificates() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("options-ca-\(getpid()).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n".write(
            toFile: path, atomically: true, encoding: .utf8)
        let server = ["--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b"]
        #expect(try Self.parse(server + ["--ca-file", path]).host.remote?.caFile == path)
        #expect(
            Self.refusal(server + ["--ca-file", "/nonexistent.pem"])
                == "--ca-file /nonexistent.pem is not a readable file of PEM certificates (-----BEGIN CERTIFICATE-----)"
        )
        #expect(
            Self.refusal(server + ["--ca-file", path, "--insecure"])
                == "--ca-file and --insecure contradict each other: --insecure verifies nothing, --ca-file verifies against FILE"
        )
    }

    @Test(arguments: [
        (["--frobnicate"], "unknown option --frobnicate"),
        (["--seed"], "--seed needs a value"),
        (
            ["--flavor", "rn-windows"],
            "unknown flavor rn-windows (available: rn-ios, rn-android, flutter-ios, flutter-android)"
        ),
        (["--seed", "-1"], "--seed needs a non-negative integer, got -1"),
        (["--clock", "virtual=forever"], "--clock is system, virtual or virtual=EPOCH, got virtual=forever"),
        (["--clock", "virtual=-5"], "--clock virtual=EPOCH needs \(TimeBounds.description), got -5"),
        (["--clock", "sundial"], "--clock is system, virtual or virtual=EPOCH, got sundial"),
        (["--framing", "xml"], "--framing is ndjson or content-length, got xml"),
        (["--max-frame-bytes", "0"], "--max-frame-bytes needs a positive integer, got 0"),
        (["--max-queued-output", "-1"], "--max-queued-output needs a positive integer, got -1"),
        (["--max-depth", "lots"], "--max-depth needs a positive integer, got lots"),
        (["--max-depth", "1001"], "--max-depth needs an integer from 1 to 1000, got 1001"),
        (["--start-delay", "61"], "--start-delay needs seconds between 0 and 60, got 61"),
        (["--start-delay", "-1"], "--start-delay needs seconds between 0 and 60, got -1"),
        (["--log-level", "loud"], "--log-level is error, warn, info, debug or trace, got loud"),
        (["--trace", ""], "--trace needs a file"),
        (["--state-dir="], "--state-dir needs a directory"),
        (["--state-dir", "s", "--recover-state", "refuse"], "--recover-state is last-good, got refuse"),
        (["--recover-state", "last-good"], "--recover-state recovers a --state-dir: it needs one"),
        (["--journeys", ""], "--journeys needs a file or directory"),
        (["--scenario", ""], "--scenario needs a file"),
        (["--unknown-nodes", "guess"], "--unknown-nodes is fail or scenario, got guess"),
        (["--callbacks", "some"], "--callbacks is sample or complete, got some"),
        (["--bridge", "blog"], "--bridge is sample or guide, got blog"),
        (
            ["--bridge", "guide", "--flavor", "rn-android"],
            "--bridge guide is the ForgeRock guide's iOS bridge: use it with --flavor rn-ios (the default)"
        ),
        (["--http", "a:b:c"], "--http needs HOST:PORT or PORT (0 picks a free port), got a:b:c"),
        (["--http", "example.com:80"], "--http needs a dotted IPv4 address or localhost, got example.com"),
        (
            ["--cors-origin", "http://localhost:3000/"],
            "--cors-origin needs an origin such as http://localhost:3000 (no path), got http://localhost:3000/"
        ),
        (
            ["--redirect-uri", "localhost:3000/cb"],
            "--redirect-uri needs an absolute URI such as http://localhost:3000/callback or com.example.app:/callback; got localhost:3000/cb (HOST:PORT without a scheme: write http://localhost:3000/cb)"
        ),
        (
            ["--post-logout-redirect-uri", "/signedout"],
            "--post-logout-redirect-uri needs an absolute URI such as http://localhost:3000/callback or com.example.app:/callback; got /signedout (no scheme such as http: or com.example.app:)"
        ),
        (
            ["--post-logout-redirect-uri", "http://localhost:3000/#out"],
            "--post-logout-redirect-uri needs an absolute URI such as http://localhost:3000/callback or com.example.app:/callback; got http://localhost:3000/#out (a redirect URI has no fragment (#…))"
        ),
        (["--post-logout-redirect-uri"], "--post-logout-redirect-uri needs a value"),
        (["--max-idle-time", "0"], "--max-idle-time needs whole minutes from 1 to 525600, got 0"),
        (["--max-session-time", "1.5"], "--max-session-time needs whole minutes from 1 to 525600, got 1.5"),
        (["--max-session-time", "525601"], "--max-session-time needs whole minutes from 1 to 525600, got 525601"),
        (
            [
                "--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b",
                "--max-idle-time", "5",
            ],
            "--max-session-time and --max-idle-time set the embedded server's sessions: a tenant's are set in its session service"
        ),
        (
            [
                "--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b",
                "--post-logout-redirect-uri", "a:/out",
            ],
            "--post-logout-redirect-uri registers with the embedded server's client: a tenant's client has its own list (its Post Logout Redirect URIs, or Sign-out URLs in Identity Cloud)"
        ),
        (
            ["--http", "0", "--public-url", "ftp://x/am"],
            "--public-url needs http(s)://HOST[:PORT]/am, the server's base URL as clients reach it; got ftp://x/am (no http:// or https://)"
        ),
        (
            ["--public-url", "http://127.0.0.1:8080/am"],
            "--public-url names where the HTTP face is reached: it needs --http"
        ),
        (["--no-stdio"], "--no-stdio needs --http: there would be no face to serve"),
        (
            ["--http", "0", "--http-request-timeout", "0"],
            "--http-request-timeout needs seconds above 0 and at most 3600, got 0"
        ),
        (
            ["--http", "0", "--http-request-timeout", "nan"],
            "--http-request-timeout needs seconds above 0 and at most 3600, got nan"
        ),
        (
            ["--http", "0", "--http-request-timeout", "3601"],
            "--http-request-timeout needs seconds above 0 and at most 3600, got 3601"
        ),
        (["--http-request-timeout", "5"], "--http-request-timeout bounds requests to the HTTP face: it needs --http"),
        (["--realm", "alpha"], "--realm applies to a remote tenant: give --server URL or --config FILE"),
        (["--insecure"], "--insecure applies to a remote tenant: give --server URL or --config FILE"),
        (["--server", ""], "--server needs a value"),
        (["--server", "https://t/am", "--client-id", "c", "--redirect-uri", "a:/b"], "--server needs --realm"),
        (
            ["--server", "tenant.example.com", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b"],
            "--server needs an http(s) URL such as https://tenant.example.com/am, got tenant.example.com"
        ),
        (
            [
                "--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b", "--timeout",
                "0",
            ],
            "--timeout needs seconds between 0 and 600, got 0"
        ),
        (
            [
                "--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b", "--discovery",
                "/x",
            ],
            "--discovery needs the http(s) URL of a .well-known/openid-configuration, got /x"
        ),
        (
            [
                "--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b",
                "--redirect-uri", "c:/d",
            ],
            "--redirect-uri is given 2 times: a remote tenant's app has one redirect URI"
        ),
        (
            ["--server", "https://t/am", "--realm", "r", "--client-id", "c", "--redirect-uri", "a:/b", "--http", "0"],
            "--http serves the embedded server: it cannot be combined with --server or --config"
        ),
    ])
    func eachRefusalSaysWhatWasWrong(arguments: [String], message: String) {
        #expect(Self.refusal(arguments) == message)
    }

    @Test func aMissingConfigFileIsNamed() {
        let message = Self.refusal(["--config", "/nonexistent/FRAuthConfig.plist"])
        #expect(message?.contains("/nonexistent/FRAuthConfig.plist") == true, "\(message ?? "accepted")")
    }

    @Test func theUsageNamesEveryFlagTheParserTakes() {
        for flag in [
            "--flavor", "--seed", "--clock", "--framing", "--max-frame-bytes", "--max-depth", "--max-queued-output",
            "--state-dir", "--recover-state", "--journeys",
            "--scenario", "--unknown-nodes", "--auth-service", "--registration-service", "--bridge", "--callbacks",
            "--start-delay", "--log-level", "--trace", "--banner", "--http", "--config", "--server", "--redirect-uri",
            "--post-logout-redirect-uri",
            "--discovery", "--timeout", "--max-reply-bytes", "--ca-file", "--insecure", "--no-stdio", "--cors-origin",
            "--public-url",
            "--help",
            "--version",
        ] {
            #expect(Options.usage.contains(flag), "\(flag) is missing from --help")
        }
    }
}
