#if canImport(Glibc)
import Glibc
#endif

/// Reads a whole file without Foundation (kept out of the daemon for its start-up cost).
public enum FileBytes {
    /// The file's bytes, or the errno that stopped the read.
    public static func read(path: String) -> Result<[UInt8], FileError> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(FileError(code: errno)) }
        defer { close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if count > 0 {
                data += chunk[0..<count]
            } else if count == 0 {
                return .success(data)
            } else if errno != EINTR {
                return .failure(FileError(code: errno))
            }
        }
    }

    public struct FileError: Error, Equatable, Sendable {
        public let code: Int32
        public var isMissing: Bool { code == ENOENT }
        public var text: String { String(cString: strerror(code)) }
    }
}
