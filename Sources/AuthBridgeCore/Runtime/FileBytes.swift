/// Reads a whole file without Foundation (kept out of the daemon for its start-up cost).
public enum FileBytes {
    /// The file's bytes, or the errno that stopped the read.
    public static func read(path: String) -> Result<[UInt8], FDIO.Failure> {
        let fd: Int32
        switch FDIO.open(path, .readOnly) {
        case .success(let opened): fd = opened
        case .failure(let failure): return .failure(failure)
        }
        defer { FDIO.close(fd) }
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            switch chunk.withUnsafeMutableBytes({ FDIO.read(fd, into: $0) }) {
            case .success(0): return .success(data)
            case .success(let count): data += chunk[0..<count]
            case .failure(let failure): return .failure(failure)
            }
        }
    }
}
