import AuthBridgeCore
import Dispatch
import Foundation
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
let daemon = Daemon(options: options)
if options.banner || isatty(STDIN_FILENO) == 1 {
    Log.shared.plain(Banner.text(for: daemon))
}

// SIGTERM and SIGINT end the process like EOF does: the request being handled finishes and its
// output is flushed (the lock is held for exactly that long), then exit 0.
let signalSources = [SIGTERM, SIGINT].map { signalNumber -> DispatchSourceSignal in
    signal(signalNumber, SIG_IGN)
    let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
    source.setEventHandler {
        daemon.lock.lock()
        logInfo("signal \(signalNumber): exiting")
        exit(0)
    }
    source.resume()
    return source
}

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
