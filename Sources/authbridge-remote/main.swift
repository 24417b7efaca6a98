import Daemon
import Host
import RemoteAM

// The build that can drive a real tenant: the same daemon with RemoteAM (the system's libcurl,
// loaded at run time, which a fully static binary cannot do) linked in. `authbridge --server …`
// execs this binary.
Daemon.run { settings throws(Host.StartFailure) in
    do throws(RemoteAM.BadSettings) {
        return try RemoteAM(settings: settings)
    } catch {
        throw Host.StartFailure(message: error.message, status: error.status)
    }
}
