import AuthBridgeCore
import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// SIGTERM and SIGINT end the process the way EOF does: the request being handled finishes and
/// its output is flushed (the daemon holds `lock` for exactly that long), then exit 0.
enum ShutdownSignals {
    static func install(lock: Lock) -> [DispatchSourceSignal] {
        [SIGTERM, SIGINT].map { signalNumber in
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                lock.lock()
                logInfo("signal \(signalNumber): exiting")
                // _exit: the main thread is parked in read(2); there is nothing left to unwind.
                _exit(0)
            }
            source.resume()
            return source
        }
    }
}
