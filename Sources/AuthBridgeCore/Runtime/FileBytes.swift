/// Reads a whole file without Foundation (kept out of the daemon for its start-up cost). Only
/// regular files are read, and only up to a limit: a FIFO would block the start forever and
/// `/dev/zero` would never end.
public enum FileBytes {
    public enum Failure: Error, Equatable, Sendable {
        case system(FDIO.Failure)
        case notRegular
        case tooLarge(limit: Int)

        public var text: String {
            switch self {
            case .system(let failure): return failure.text
            case .notRegular: return "not a regular file (a FIFO, device or directory cannot be read)"
            case .tooLarge(let limit): return "larger than \(limit) bytes"
            }
        }

        public var isMissing: Bool { if case .system(let failure) = self { failure.isMissing } else { false } }
    }

    /// What a file read by default may hold: far more than any journey export or state file.
    public static let defaultLimit = 256 * 1024 * 1024

    /// The file's bytes. `noFollow` refuses a symbolic link as the last component.
    public static func read(path: String, limit: Int = defaultLimit, noFollow: Bool = false) -> Result<[UInt8], Failure>
    {
        var flags: FDIO.OpenFlags = [.readOnly, .nonBlocking]
        if noFollow { flags.insert(.noFollow) }
        switch FDIO.open(path, flags) {
        case .success(let fd):
            defer { FDIO.close(fd) }
            return read(fd: fd, limit: limit)
        case .failure(let failure):
            return .failure(.system(failure))
        }
    }

    /// The bytes of an open file, checked to be a regular file within `limit`.
    public static func read(fd: Int32, limit: Int = defaultLimit) -> Result<[UInt8], Failure> {
        switch FDIO.status(of: fd) {
        case .failure(let failure): return .failure(.system(failure))
        case .success(let status) where status.kind != .regular: return .failure(.notRegular)
        case .success(let status) where status.size > Int64(limit): return .failure(.tooLarge(limit: limit))
        case .success: break
        }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            switch chunk.withUnsafeMutableBytes({ FDIO.read(fd, into: $0) }) {
            case .success(0): return .success(data)
            case .success(let count):
                // A file that grows while it is read is held to the same limit.
                guard data.count + count <= limit else { return .failure(.tooLarge(limit: limit)) }
                data += chunk[0..<count]
            case .failure(let failure): return .failure(.system(failure))
            }
        }
    }
}
