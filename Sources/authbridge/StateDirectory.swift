import AuthBridgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `--state-dir`: one file, `state.json`, replaced atomically (temp file, fsync, rename, fsync of
/// the directory), so a kill at any instant leaves the old state or the new one, never a torn
/// file. The directory is locked (flock) so two daemons cannot write over each other.
final class StateDirectory {
    let path: String
    let file: String
    private let temporary: String
    private let lockFD: Int32
    private var lastWritten: [UInt8] = []

    init(path: String) throws(StartFailure) {
        self.path = path
        file = path + "/state.json"
        temporary = path + "/state.json.tmp"
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw StartFailure(message: "cannot create the state directory \(path): \(Self.errorText())")
        }
        let fd = open(path + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StartFailure(message: "cannot open \(path)/lock: \(Self.errorText())") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw StartFailure(message: "the state directory \(path) is in use by another authbridge")
        }
        lockFD = fd
        // A temp file is what a kill during a save leaves; the state it was to become never landed.
        unlink(temporary)
    }

    deinit { close(lockFD) }

    /// The saved state, or nil when there is none yet. A file that cannot be parsed is an error
    /// naming it: state is never silently thrown away.
    func load() throws(StartFailure) -> JSONValue? {
        let data: [UInt8]
        switch FileBytes.read(path: file) {
        case .success(let bytes): data = bytes
        case .failure(let error) where error.isMissing: return nil
        case .failure(let error): throw StartFailure(message: "cannot read the state file \(file): \(error.text)")
        }
        do {
            let value = try JSONParser.parse(data)
            lastWritten = data
            return value
        } catch {
            throw StartFailure(message: "the state file \(file) is corrupt (\(error.message) at byte \(error.offset)); move it away to start afresh")
        }
    }

    /// Writes `bytes` unless they are what the file already holds.
    func save(_ bytes: [UInt8]) throws(StartFailure) {
        guard bytes != lastWritten else { return }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StartFailure(message: "cannot write \(temporary): \(Self.errorText())") }
        var offset = 0
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            while offset < raw.count {
                let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { return false }
            }
            return fsync(fd) == 0
        }
        close(fd)
        guard ok, rename(temporary, file) == 0 else {
            unlink(temporary)
            throw StartFailure(message: "cannot save the state to \(file): \(Self.errorText())")
        }
        let directory = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        lastWritten = bytes
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
