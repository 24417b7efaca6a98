import Daemon
import Host
import RemoteAM

// The build that can drive a real tenant: the same daemon with RemoteAM (URLSession, hence
// Foundation and libcurl) linked in. `authbridge --server …` execs this binary.
Daemon.run { settings throws(Host.StartFailure) in
    do throws(RemoteAM.BadSettings) {
        return try RemoteAM(settings: settings)
    } catch {
        throw Host.StartFailure(message: error.message)
    }
}
