import AuthBridgeCore

/// `--state-dir`: one file, `state.json`, replaced atomically (temp file, fsync, rename, fsync of
/// the directory), so a kill at any instant leaves the old state or the new one, never a torn
/// file. The directory is locked (flock) so two daemons cannot write over each other.
public final class StateDirectory {
    /// Why the directory cannot be used or written; the message names the path and the cause.
    public struct Failure: Error, Sendable {
        public let message: String
    }

    public let path: String
    public let file: String
    private let temporary: String
    private let lockFD: Int32
    private var lastWritten: [UInt8] = []

    public init(path: String) throws(Failure) {
        self.path = path
        file = path + "/state.json"
        temporary = path + "/state.json.tmp"
        if let failure = FDIO.makeDirectory(path) {
            throw Failure(message: "cannot create the state directory \(path): \(failure.text)")
        }
        let fd: Int32
        switch FDIO.open(path + "/lock", [.readWrite, .create]) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw Failure(message: "cannot open \(path)/lock: \(failure.text)")
        }
        guard FDIO.tryLockExclusive(fd) else {
            FDIO.close(fd)
            throw Failure(message: "the state directory \(path) is in use by another authbridge")
        }
        lockFD = fd
        // A temp file is what a kill during a save leaves; the state it was to become never landed.
        FDIO.remove(temporary)
    }

    deinit { FDIO.close(lockFD) }

    /// The saved state, or nil when there is none yet. A file that cannot be parsed is an error
    /// naming it: state is never silently thrown away.
    public func load() throws(Failure) -> JSONValue? {
        let data: [UInt8]
        switch FileBytes.read(path: file) {
        case .success(let bytes): data = bytes
        case .failure(let error) where error.isMissing: return nil
        case .failure(let error): throw Failure(message: "cannot read the state file \(file): \(error.text)")
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
    public func save(_ bytes: [UInt8]) throws(Failure) {
        guard bytes != lastWritten else { return }
        let fd: Int32
        switch FDIO.open(temporary, [.writeOnly, .create, .truncate]) {
        case .success(let opened): fd = opened
        case .failure(let failure): throw Failure(message: "cannot write \(temporary): \(failure.text)")
        }
        let failure = FDIO.writeAll(fd, bytes) ?? FDIO.sync(fd)
        FDIO.close(fd)
        if let failure = failure ?? FDIO.rename(temporary, to: file) {
            FDIO.remove(temporary)
            throw Failure(message: "cannot save the state to \(file): \(failure.text)")
        }
        FDIO.syncDirectory(path)
        lastWritten = bytes
    }
}
