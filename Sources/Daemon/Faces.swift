/// Which faces a run starts, decided from the options alone, so the decision is testable
/// without a process; `Daemon.run` does the binding, the exec and the serving.
struct Faces: Equatable {
    /// `--server`/`--config` in the build without a tenant's client: `exec` authbridge-remote.
    var handOverToRemote: Bool
    /// `--http`: the listener binds before the Host is built.
    var http: Bool
    /// JSON-RPC on stdin/stdout. Without it (`--no-stdio`) HTTP is served on the main thread;
    /// with it, HTTP (when asked for) runs beside it.
    var stdio: Bool
    /// The how-to on stderr: asked for with `--banner`, or a person typing at a terminal.
    var banner: Bool
}

extension Faces {
    init(_ options: Options, remoteLinked: Bool, stdinIsTerminal: Bool) {
        handOverToRemote = options.host.remote != nil && !remoteLinked
        http = options.http != nil
        stdio = !options.noStdio
        banner = options.banner || (stdio && stdinIsTerminal)
    }
}
