import AuthBridgeCore
import JSONRPC

#if canImport(Glibc)
import Glibc
#endif

let options: Options
do {
    options = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    Log.shared.plain("authbridge: \(error.message)\n\n\(Options.usage)\n")
    exit(2)
}
if CommandLine.arguments.contains("--help") || CommandLine.arguments.contains("-h") {
    Log.shared.plain(Options.usage + "\n")
    exit(0)
}
if CommandLine.arguments.contains("--version") {
    Log.shared.plain("authbridge \(Daemon.version) (protocol \(Daemon.protocolVersion))\n")
    exit(0)
}

Log.shared.setLevel(options.logLevel)
ProcessStdio.ignoreSIGPIPE()
let protocolOutput = ProcessStdio.takeOverStdout()
let daemon: Daemon
do {
    daemon = try Daemon(options: options)
} catch {
    Log.shared.plain("authbridge: \(error.message)\n")
    exit(1)
}
if options.banner || isatty(STDIN_FILENO) == 1 {
    Log.shared.plain(Banner.text(for: daemon))
}

let signalSources = ShutdownSignals.install(lock: daemon.lock)

let end = daemon.run(input: STDIN_FILENO, output: protocolOutput)
withExtendedLifetime(signalSources) {}
switch end {
case .endOfInput:
    logInfo("end of input: exiting")
    exit(0)
case .stopped:
    exit(0)
case .readFailed(let code):
    logError("reading stdin failed: \(String(cString: strerror(code)))")
    exit(2)
case .outputClosed:
    logError("stdout was closed by the host: exiting")
    exit(2)
}
