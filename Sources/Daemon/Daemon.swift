import AuthBridgeCore
import HTTPFace
import HTTPServer
import Host
import Inspector
import JSONRPC
import RPCFace

// The executable parses options, builds the Host, and starts its faces: stdio JSON-RPC, HTTP
// (--http), and shutdown signals. Everything else lives in the libraries.

public enum Daemon {
    /// The whole process: options, the Host, its faces. `connect` builds a remote tenant's client;
    /// without one, remote mode hands over to the authbridge-remote binary.
    public static func run(connect: Host.Connect?) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == ExportCommand.name { ExportCommand.run(Array(arguments.dropFirst())) }
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Log.shared.plain("authbridge: \(error.message)\n\n\(Options.usage)\n")
            ProcessControl.exitNow(2)
        }
        switch options.action {
        case .serve: break
        case .help:
            Log.shared.plain(Options.usage + "\n")
            ProcessControl.exitNow(0)
        case .version:
            Log.shared.plain("authbridge \(Host.productVersion) (protocol \(RPCFace.protocolVersion))\n")
            ProcessControl.exitNow(0)
        }

        // Remote mode lives in authbridge-remote, the build that loads libcurl: this one stays
        // fully static and quick to start (docs/remote.md).
        let faces = Faces(options, remoteLinked: connect != nil, stdinIsTerminal: FDIO.isTerminal(FDIO.standardInput))
        if faces.handOverToRemote { RemoteHandOver.exec(arguments) }
        Log.shared.setLevel(options.logLevel)
        if let path = options.traceFile {
            switch FDIO.open(path, [.writeOnly, .create, .truncate], mode: 0o600) {
            case .success(let fd): Log.shared.setTraceFile(fd)
            case .failure(let failure):
                Log.shared.plain(
                    "authbridge: cannot write the trace file \(path): \(failure.text); give --trace a writable path\n")
                ProcessControl.exitNow(2)
            }
        }
        ProcessControl.ignoreWriteSignals()
        ProcessControl.holdTerminationSignals()
        guard let protocolOutput = ProcessControl.takeOverStdout() else {
            Log.shared.plain("authbridge: stdout is closed; the protocol needs it\n")
            ProcessControl.exitNow(2)
        }
        // The HTTP listener binds before the Host is built: the embedded server names the URL it is
        // served at (the issuer of its tokens), and port 0 is only known once bound.
        var hostConfiguration = options.host
        var listener: HTTPServer?
        if let endpoint = options.http {
            var configuration = HTTPServer.Configuration()
            configuration.endpoint = endpoint
            if let seconds = options.httpRequestSeconds { configuration.requestSeconds = seconds }
            do {
                listener = try HTTPServer(configuration: configuration)
                hostConfiguration.httpOrigin = listener?.origin
                // The inspector's timeline is kept only where the inspector is served.
                hostConfiguration.recordsTimeline = Inspector.url(atOrigin: listener?.origin) != nil
            } catch {
                Log.shared.plain("authbridge: --http: \(error.message)\n")
                ProcessControl.exitNow(1)
            }
        }
        let host: Host
        do {
            host = try Host(configuration: hostConfiguration, connect: connect)
        } catch {
            Log.shared.plain("authbridge: \(error.message)\n")
            ProcessControl.exitNow(error.status)
        }
        if faces.banner {
            Log.shared.plain(Banner.text(for: host))
        }
        if let listener {
            if !listener.configuration.endpoint.isLoopback {
                logWarn("--http \(listener.origin) is not a loopback address: other machines can reach the server")
            }
            for origin in RedirectURIFlag.originsWithoutCORS(
                options.host.redirectUris, corsOrigins: options.corsOrigins)
            {
                logWarn(
                    "--redirect-uri on \(origin) without --cors-origin \(origin): a browser app there cannot call the server (docs/http.md)"
                )
            }
            let named = options.host.publicURL.map { ", public URL \($0)/" } ?? ""
            Log.shared.plain(
                "authbridge: AM over HTTP at \(listener.origin)/am/ (realm \(host.view.server.realm)\(named))\n")
            if let url = Inspector.url(atOrigin: listener.origin) {
                Log.shared.plain("authbridge: the inspector at \(url) (docs/inspector.md)\n")
            }
            if faces.stdio { HTTPFace.start(host: host, listener: listener, corsOrigins: options.corsOrigins) }
        }

        // SIGTERM and SIGINT end the process the way EOF does: the unit of work under way finishes, its
        // changes durable and the input read so far answered, then exit 0. The main thread is parked in read(2), or
        // in write(2) when the host stopped reading: then the wait is bounded.
        let signalSources = ProcessControl.onTermination { [host] signal in
            host.stop(grace: 2) { waited in
                if waited {
                    logInfo("signal \(signal): exiting")
                } else {
                    logWarn(
                        "signal \(signal): the host is not reading stdout; exiting without the output it did not read")
                }
                ProcessControl.exitNow(0)
            }
        }

        if !faces.stdio, let listener {
            withExtendedLifetime(signalSources) {
                HTTPFace.serve(host: host, listener: listener, corsOrigins: options.corsOrigins)
            }
            ProcessControl.exitNow(0)
        }

        let face = RPCFace(
            host: host, limits: RPCServer.Limits(maxDepth: options.maxDepth), trace: Log.shared.isTracing)
        let end = face.serve(
            input: FDIO.standardInput, output: protocolOutput, maxFrameBytes: options.maxFrameBytes,
            framing: options.framing,
            maxQueuedOutput: options.maxQueuedOutput)
        withExtendedLifetime(signalSources) {}
        switch end {
        case .endOfInput:
            logInfo("end of input: exiting")
            ProcessControl.exitNow(0)
        case .stopped:
            ProcessControl.exitNow(0)
        case .readFailed(let failure):
            logError("reading stdin failed: \(failure.text)")
            ProcessControl.exitNow(2)
        case .outputClosed:
            logError("stdout was closed by the host: exiting")
            ProcessControl.exitNow(2)
        }
    }
}
