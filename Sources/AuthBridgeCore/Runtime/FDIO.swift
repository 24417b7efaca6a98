#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File-descriptor I/O for every layer: the one write-all loop, reads that retry on EINTR, and
/// the few file operations the state directory needs. The other targets never import the
/// platform's C library; they come here, so the daemon builds wherever Core builds.
public enum FDIO {
    public static let standardInput: Int32 = 0
    public static let standardOutput: Int32 = 1
    public static let standardError: Int32 = 2

    /// This process's id.
    public static var processID: Int32 { getpid() }

    /// An errno value, with the system's text for it.
    public struct Failure: Error, Equatable, Sendable {
        public let code: Int32
        public init(code: Int32) { self.code = code }
        public static var last: Failure { Failure(code: errno) }
        public var text: String { String(cString: strerror(code)) }
        public var isMissing: Bool { code == ENOENT }
    }

    /// Writes every byte, looping over short writes and retrying EINTR and EAGAIN. Returns the
    /// failure that stopped it (EPIPE when the reader has gone), nil when everything went out.
    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Failure? {
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR || errno == EAGAIN {
                continue
            } else {
                return written < 0 ? .last : Failure(code: EIO)
            }
        }
        return nil
    }

    @discardableResult
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Failure? {
        bytes.withUnsafeBytes { writeAll(fd, $0) }
    }

    /// One read(2): the byte count (0 at end of input), retrying EINTR.
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Failure> {
        while true {
            let count = systemRead(fd, buffer.baseAddress!, buffer.count)
            if count >= 0 { return .success(count) }
            if errno != EINTR { return .failure(.last) }
        }
    }

    public static func isTerminal(_ fd: Int32) -> Bool { isatty(fd) == 1 }

    // MARK: files

    public struct OpenFlags: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }
        public static let readOnly = OpenFlags([])
        public static let writeOnly = OpenFlags(rawValue: O_WRONLY)
        public static let readWrite = OpenFlags(rawValue: O_RDWR)
        public static let create = OpenFlags(rawValue: O_CREAT)
        public static let truncate = OpenFlags(rawValue: O_TRUNC)
        public static let directory = OpenFlags(rawValue: O_DIRECTORY)
        /// Fail when the path exists (with `.create`): the file is surely the caller's own.
        public static let exclusive = OpenFlags(rawValue: O_EXCL)
        /// Fail when the last component is a symbolic link, instead of following it.
        public static let noFollow = OpenFlags(rawValue: O_NOFOLLOW)
        /// Every write goes to the end of the file.
        public static let append = OpenFlags(rawValue: O_APPEND)
        /// Do not wait at open: a FIFO with no writer would block forever.
        public static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
    }

    /// open(2) with close-on-exec always set: no descriptor leaks into a child process.
    public static func open(_ path: String, _ flags: OpenFlags, mode: UInt32 = 0o600) -> Result<Int32, Failure> {
        let fd = systemOpen(path, flags.rawValue | O_CLOEXEC, mode)
        return fd >= 0 ? .success(fd) : .failure(.last)
    }

    /// openat(2): `name` inside the directory open as `directory`, so a path swapped meanwhile
    /// cannot redirect it.
    public static func open(
        in directory: Int32, _ name: String, _ flags: OpenFlags, mode: UInt32 = 0o600
    ) -> Result<Int32, Failure> {
        let fd = openat(directory, name, flags.rawValue | O_CLOEXEC, mode_t(mode))
        return fd >= 0 ? .success(fd) : .failure(.last)
    }

    public static func close(_ fd: Int32) { _ = systemClose(fd) }

    public static func sync(_ fd: Int32) -> Failure? { fsync(fd) == 0 ? nil : .last }

    /// Cuts a file to `length` bytes.
    public static func truncate(_ fd: Int32, to length: Int64) -> Failure? {
        ftruncate(fd, off_t(length)) == 0 ? nil : .last
    }

    /// Creates a directory (mode 0700); one that already exists is not an error.
    public static func makeDirectory(_ path: String) -> Failure? {
        mkdir(path, 0o700) == 0 || errno == EEXIST ? nil : .last
    }

    /// An exclusive, non-blocking flock(2): false when another process holds it.
    public static func tryLockExclusive(_ fd: Int32) -> Bool { flock(fd, LOCK_EX | LOCK_NB) == 0 }

    public static func remove(in directory: Int32, _ name: String) { unlinkat(directory, name, 0) }

    public static func rename(in directory: Int32, _ from: String, to: String) -> Failure? {
        renameat(directory, from, directory, to) == 0 ? nil : .last
    }

    // MARK: status

    /// What stat(2) says of a file, as far as the state directory's checks need it.
    public struct FileStatus: Equatable, Sendable {
        public enum Kind: Sendable { case regular, directory, symbolicLink, other }
        public var kind: Kind
        public var owner: UInt32
        /// Permission bits (0o777 part of the mode).
        public var permissions: UInt32
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64

        init(_ raw: stat) {
            switch raw.st_mode & S_IFMT {
            case S_IFREG: kind = .regular
            case S_IFDIR: kind = .directory
            case S_IFLNK: kind = .symbolicLink
            default: kind = .other
            }
            owner = raw.st_uid
            permissions = UInt32(raw.st_mode) & 0o777
            // dev_t is signed on macOS, unsigned on Linux.
            device = UInt64(truncatingIfNeeded: raw.st_dev)
            inode = UInt64(truncatingIfNeeded: raw.st_ino)
            size = Int64(raw.st_size)
        }

        /// The same file: what a path is compared with to tell it was not replaced.
        public func isSameFile(as other: FileStatus) -> Bool { device == other.device && inode == other.inode }
    }

    /// lstat(2): a symbolic link is reported as one, not followed.
    public static func status(ofPath path: String) -> Result<FileStatus, Failure> {
        var raw = stat()
        return lstat(path, &raw) == 0 ? .success(FileStatus(raw)) : .failure(.last)
    }

    /// fstatat(2) without following a link: `name` inside an open directory.
    public static func status(in directory: Int32, _ name: String) -> Result<FileStatus, Failure> {
        var raw = stat()
        return fstatat(directory, name, &raw, AT_SYMLINK_NOFOLLOW) == 0 ? .success(FileStatus(raw)) : .failure(.last)
    }

    public static func status(of fd: Int32) -> Result<FileStatus, Failure> {
        var raw = stat()
        return fstat(fd, &raw) == 0 ? .success(FileStatus(raw)) : .failure(.last)
    }

    /// The user this process runs as.
    public static var currentUser: UInt32 { geteuid() }
}

// The C library's names, reachable inside `FDIO` where its own `read`, `open`… shadow them.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func systemOpen(_ path: String, _ flags: Int32, _ mode: UInt32) -> Int32 { open(path, flags, mode_t(mode)) }
private func systemClose(_ fd: Int32) -> Int32 { close(fd) }
