import Dispatch

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a daemon does to its own process (protocol/README.md, framing): keep stdout for protocol
/// frames, survive a host that closes the pipe, end on SIGTERM/SIGINT, sleep.
public enum ProcessControl {
    /// Duplicates fd 1 for the protocol and points fd 1 at stderr, so a stray print cannot
    /// corrupt the stream. Returns the protocol's descriptor, or nil when fd 1 is not open.
    public static func takeOverStdout() -> Int32? {
        let protocolFD = dup(STDOUT_FILENO)
        guard protocolFD >= 0 else { return nil }
        dup2(STDERR_FILENO, STDOUT_FILENO)
        return protocolFD
    }

    /// Writes fail with an error instead of killing the process: a host that goes away (EPIPE)
    /// or a file-size limit reached (EFBIG) is handled where it happens — a change that cannot
    /// be saved is answered as such, not lost with the process.
    public static func ignoreWriteSignals() {
        signal(SIGPIPE, SIG_IGN)
        signal(SIGXFSZ, SIG_IGN)
    }

    /// Blocks SIGTERM and SIGINT in the calling thread and every thread it starts from now on,
    /// so they reach `onTermination`'s sources only. Call it before any thread is started. On
    /// Linux a dispatch signal source reads a signalfd, and a process-wide signal goes to any
    /// thread that does not block it: a main thread parked in read(2) or accept(2) would take
    /// it through the plain handler first, and the source would never fire (the daemon then
    /// ignored SIGTERM now and then on a loaded machine). A signal that arrives before the
    /// sources exist stays pending until they do.
    public static func holdTerminationSignals() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Runs `handler` on a dispatch thread when SIGTERM or SIGINT arrives; they must be held
    /// (`holdTerminationSignals`). Keep the sources alive for as long as the handler should run.
    public static func onTermination(_ handler: @escaping @Sendable (_ signal: Int32) -> Void) -> [DispatchSourceSignal]
    {
        [SIGTERM, SIGINT].map { signalNumber in
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { handler(signalNumber) }
            source.resume()
            return source
        }
    }

    /// Ends the process now, without unwinding: for a thread that holds everything still.
    public static func exitNow(_ status: Int32) -> Never { _exit(status) }

    public static func sleep(seconds: Double) {
        guard seconds > 0 else { return }
        usleep(UInt32(min(seconds, 60) * 1_000_000))
    }
}
