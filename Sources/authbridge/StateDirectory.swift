import AuthBridgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `--state-dir`: one file, `state.json`, replaced atomically (temp file, fsync, rename, fsync of
/// the directory), so a kill at any instant leaves the old state or the new one, never a torn
/// file. The directory is locked (flock) so two daemons cannot write over each other.
final class StateDirectory {
    struct Failure: Error { let message: String }

    let path: String
    let file: String
    private let temporary: String
    private let lockFD: Int32
    private var lastWritten: [UInt8] = []

    init(path: String) throws(Failure) {
        self.path = path
        file = path + "/state.json"
        temporary = path + "/state.json.tmp"
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw Failure(message: "cannot create the state directory \(path): \(Self.errorText())")
        }
        let fd = open(path + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(message: "cannot open \(path)/lock: \(Self.errorText())") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw Failure(message: "the state directory \(path) is in use by another authbridge")
        }
        lockFD = fd
        // A temp file is what a kill during a save leaves; the state it was to become never landed.
        unlink(temporary)
    }

    deinit { close(lockFD) }

    /// The saved state, or nil when there is none yet. A file that cannot be parsed is an error
    /// naming it: state is never silently thrown away.
    func load() throws(Failure) -> JSONValue? {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw Failure(message: "cannot read the state file \(file): \(Self.errorText())")
        }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if count > 0 {
                data += chunk[0..<count]
            } else if count == 0 {
                break
            } else if errno != EINTR {
                throw Failure(message: "cannot read the state file \(file): \(Self.errorText())")
            }
        }
        do {
            let value = try JSONParser.parse(data)
            lastWritten = data
            return value
        } catch {
            throw Failure(message: "the state file \(file) is corrupt (\(error.message) at byte \(error.offset)); move it away to start afresh")
        }
    }

    /// Writes `bytes` unless they are what the file already holds.
    func save(_ bytes: [UInt8]) throws(Failure) {
        guard bytes != lastWritten else { return }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Failure(message: "cannot write \(temporary): \(Self.errorText())") }
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
            throw Failure(message: "cannot save the state to \(file): \(Self.errorText())")
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
