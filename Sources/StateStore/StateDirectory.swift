import AuthBridgeCore

/// `--state-dir`: one file, `state.json`, replaced atomically (an exclusively created temp file,
/// fsync, rename, fsync of the directory), so a kill at any instant leaves the old state or the
/// new one, never a torn file. The directory is locked (flock) so two daemons cannot write over
/// each other.
///
/// The file holds tokens, so the directory is trusted only when it is safe: it must be a real
/// directory (not a symbolic link), owned by this user and writable by nobody else, and so must
/// the state file. Every operation goes through the directory's descriptor, never its path, and
/// each save first checks the path still names that directory: one deleted and re-created under
/// a running daemon (where a second daemon may now hold the lock) is never written.
public final class StateDirectory {
    /// Why the directory cannot be used or written; the message names the path and the cause.
    public struct Failure: Error, Sendable {
        public let message: String
        /// Set when the journal is damaged in the middle (the start refuses it unless told to recover).
        public var damage: JournalDamage? = nil
    }

    /// What a start does with a journal damaged in the middle: refuse it, leaving every file as
    /// it was (the default), or go on from the last good record before the damage, keeping a copy
    /// of the snapshot and the journal as they were (`--recover-state last-good`).
    public enum Recovery: String, Sendable {
        case refuse
        case lastGood = "last-good"
    }

    public let path: String
    public let file: String
    private static let stateName = "state.json"
    private static let temporaryName = "state.json.tmp"
    static let journalName = "state.journal"
    private let directoryFD: Int32
    private let identity: FDIO.FileStatus
    private let lockFD: Int32
    private var lastWritten: [UInt8] = []
    /// The journal, open for appending; its size, to know when to compact.
    private var journalFD: Int32 = -1
    public private(set) var journalBytes: Int64 = 0
    /// A failed append could not be cut off again: the next append cuts it first, or fails.
    private var cutPending = false

    public init(path: String) throws(Failure) {
        self.path = path
        file = path + "/" + Self.stateName
        if let failure = FDIO.makeDirectory(path) {
            throw Failure(message: "cannot create the state directory \(path): \(failure.text)")
        }
        switch FDIO.status(ofPath: path) {
        case .failure(let failure): throw Failure(message: "cannot use the state directory \(path): \(failure.text)")
        case .success(let status): try Self.checkSafe(status, what: "the state directory \(path)", kind: .directory)
        }
        switch FDIO.open(path, [.readOnly, .directory, .noFollow]) {
        case .success(let fd): directoryFD = fd
        case .failure(let failure): throw Failure(message: "cannot open the state directory \(path): \(failure.text)")
        }
        guard case .success(let identity) = FDIO.status(of: directoryFD) else {
            FDIO.close(directoryFD)
            throw Failure(message: "cannot use the state directory \(path)")
        }
        self.identity = identity
        switch FDIO.open(in: directoryFD, "lock", [.readWrite, .create, .noFollow]) {
        case .success(let fd): lockFD = fd
        case .failure(let failure):
            FDIO.close(directoryFD)
            throw Failure(message: "cannot open \(path)/lock: \(failure.text)")
        }
        // A child forked meanwhile by this process (a test runner spawning a daemon) keeps a copy
        // of a lock just released until it execs, where close-on-exec drops it: a held lock is
        // asked again for up to a second before it counts as another daemon's.
        var locked = FDIO.tryLockExclusive(lockFD)
        for _ in 0..<25 where !locked {
            ProcessControl.sleep(seconds: 0.04)
            locked = FDIO.tryLockExclusive(lockFD)
        }
        guard locked else {
            let holder = Self.holder(lockFD)
            FDIO.close(lockFD)
            FDIO.close(directoryFD)
            let who = holder.map { "another authbridge (pid \($0))" } ?? "another authbridge"
            let stop = holder.map { "stop it (kill \($0), or end its input)" } ?? "stop it"
            throw Failure(
                message:
                    "the state directory \(path) is in use by \(who): \(stop), or give this one another --state-dir")
        }
        // The holder's pid, for the message a second daemon gives; the lock itself is the flock.
        _ = FDIO.truncate(lockFD, to: 0)
        FDIO.writeAll(lockFD, Array("\(FDIO.processID)\n".utf8))
        // A temp file is what a kill during a save leaves; the state it was to become never landed.
        if case .success(let status) = FDIO.status(in: directoryFD, Self.temporaryName), status.kind == .regular {
            FDIO.remove(in: directoryFD, Self.temporaryName)
        }
    }

    /// The pid the lock's holder wrote into it, when it is one.
    private static func holder(_ fd: Int32) -> Int32? {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard case .success(let count) = bytes.withUnsafeMutableBytes({ FDIO.read(fd, into: $0) }), count > 0 else {
            return nil
        }
        let text = String(decoding: bytes[..<count], as: UTF8.self)
        guard let pid = Int32(text.split(separator: "\n").first ?? ""), pid > 0 else { return nil }
        return pid
    }

    deinit {
        if journalFD >= 0 { FDIO.close(journalFD) }
        FDIO.close(lockFD)
        FDIO.close(directoryFD)
    }

    /// Refuses what another user could have planted or can still change.
    private static func checkSafe(_ status: FDIO.FileStatus, what: String, kind: FDIO.FileStatus.Kind) throws(Failure) {
        switch status.kind {
        case .symbolicLink: throw Failure(message: "\(what) is a symbolic link; give the real path")
        case kind: break
        default: throw Failure(message: "\(what) is not a \(kind == .directory ? "directory" : "regular file")")
        }
        guard status.owner == FDIO.currentUser else {
            throw Failure(message: "\(what) belongs to another user (uid \(status.owner)); it must be this user's own")
        }
        guard status.permissions & 0o022 == 0 else {
            let mode = String(status.permissions, radix: 8)
            throw Failure(message: "\(what) is writable by others (mode \(mode)); make it private (chmod go-w)")
        }
    }

    /// What is on disk: the snapshot and, after it, the journal's committed records in order.
    public struct Saved {
        public var snapshot: JSONValue
        public var records: [JSONValue]
    }

    /// The snapshot and the journal's valid records, or nil when nothing was saved yet.
    ///
    /// A last record cut short or failing its checksum, with nothing after it, is what a kill
    /// during an append leaves (never acknowledged): it is cut off the file, with a log line. A
    /// damaged record with more after it is not something a crash leaves, and the records after
    /// it were acknowledged: the load stops with a `Failure` naming the line, every file as it
    /// was, unless `recovery` is `.lastGood`, which keeps a copy of the snapshot and the journal
    /// beside them and goes on from the records before the damage.
    public func load(recovery: Recovery = .refuse) throws(Failure) -> Saved? {
        guard let snapshot = try loadSnapshot() else { return nil }
        return Saved(snapshot: snapshot, records: try loadJournal(recovery: recovery))
    }

    private func loadJournal(recovery: Recovery = .refuse) throws(Failure) -> [JSONValue] {
        let fd: Int32
        switch FDIO.open(in: directoryFD, Self.journalName, [.readWrite, .append, .create, .noFollow, .nonBlocking]) {
        case .success(let opened): fd = opened
        case .failure(let failure):
            throw Failure(message: "cannot open the journal \(path)/\(Self.journalName): \(failure.text)")
        }
        // A failed append not yet cut off is cut before reading: read back, it could pass for a
        // record, and its sequence number is the next commit's.
        if cutPending, let failure = FDIO.truncate(fd, to: journalBytes) {
            FDIO.close(fd)
            throw Failure(message: "cannot cut a failed record off \(path)/\(Self.journalName): \(failure.text)")
        }
        cutPending = false
        if journalFD >= 0 { FDIO.close(journalFD) }
        journalFD = fd
        if case .success(let status) = FDIO.status(of: fd) {
            try Self.checkSafe(status, what: "the journal \(path)/\(Self.journalName)", kind: .regular)
        }
        let bytes: [UInt8]
        switch FileBytes.read(fd: fd) {
        case .success(let data): bytes = data
        case .failure(let error):
            throw Failure(message: "cannot read the journal \(path)/\(Self.journalName): \(error.text)")
        }
        let decoded = JournalLine.decode(bytes)
        let journal = "\(path)/\(Self.journalName)"
        if let damage = decoded.damage {
            guard recovery == .lastGood else {
                throw Failure(
                    message: "the journal \(journal) is damaged at line \(damage.line) (byte \(damage.offset)), with "
                        + "\(damage.intactAfter) intact record\(damage.intactAfter == 1 ? "" : "s") after it that would be lost; "
                        + "nothing was changed. To start from the records before line \(damage.line) and drop it and the rest, "
                        + "start with --recover-state last-good (a copy of \(Self.stateName) and \(Self.journalName) as they are "
                        + "is kept beside them first)",
                    damage: damage)
            }
            let copy = try keepDamagedCopy(journal: bytes)
            logWarn(
                "the journal \(journal) is damaged at line \(damage.line) (byte \(damage.offset)): started from the records "
                    + "before it, dropping it and the \(damage.intactAfter) intact record(s) after it; the files as they were are kept as "
                    + "\(path)/\(Self.stateName)\(copy) and \(journal)\(copy)")
        } else if let torn = decoded.tornTail {
            logWarn(
                "the journal \(journal) ends with \(torn) bytes of an unfinished record (a crash during a save); dropped"
            )
        }
        if decoded.validBytes < bytes.count, let failure = FDIO.truncate(fd, to: Int64(decoded.validBytes)) {
            throw Failure(message: "cannot cut the unfinished record off \(journal): \(failure.text)")
        }
        journalBytes = Int64(decoded.validBytes)
        return decoded.records
    }

    /// Copies the snapshot and the journal, as they are, to `state.json.damaged-N` and
    /// `state.journal.damaged-N` (the first N free), synced, before a recovery changes them.
    /// Returns the suffix.
    private func keepDamagedCopy(journal: [UInt8]) throws(Failure) -> String {
        var number = 1
        while case .success = FDIO.status(in: directoryFD, "\(Self.journalName).damaged-\(number)") { number += 1 }
        let suffix = ".damaged-\(number)"
        for (name, bytes) in [(Self.stateName, lastWritten), (Self.journalName, journal)] {
            let fd: Int32
            switch FDIO.open(in: directoryFD, name + suffix, [.writeOnly, .create, .exclusive, .noFollow]) {
            case .success(let opened): fd = opened
            case .failure(let failure):
                throw Failure(message: "cannot keep a copy as \(path)/\(name + suffix): \(failure.text)")
            }
            let failure = FDIO.writeAll(fd, bytes) ?? FDIO.sync(fd)
            FDIO.close(fd)
            if let failure { throw Failure(message: "cannot keep a copy as \(path)/\(name + suffix): \(failure.text)") }
        }
        _ = FDIO.sync(directoryFD)
        return suffix
    }

    /// Appends one committed record and syncs it: when this returns, the change survives a crash.
    /// A failed append is cut off again, and until it is (the cut can fail too), nothing more is
    /// appended: a record that did not land whole is only ever the journal's last, the torn tail
    /// a start may drop, never damage in the middle that would stop it.
    public func append(_ record: JSONValue) throws(Failure) {
        try checkStillOurs()
        if journalFD < 0 { _ = try loadJournal() }
        if cutPending {
            if let failure = FDIO.truncate(journalFD, to: journalBytes) ?? FDIO.sync(journalFD) {
                throw Failure(message: "cannot cut a failed record off \(path)/\(Self.journalName): \(failure.text)")
            }
            cutPending = false
        }
        let line = JournalLine.encode(record)
        if let failure = FDIO.writeAll(journalFD, line) ?? FDIO.sync(journalFD) {
            cutPending = FDIO.truncate(journalFD, to: journalBytes) != nil
            throw Failure(message: "cannot write to \(path)/\(Self.journalName): \(failure.text)")
        }
        journalBytes += Int64(line.count)
    }

    /// Replaces the snapshot with `bytes` (atomically) and empties the journal, whose records
    /// the snapshot now holds.
    public func compact(_ bytes: [UInt8]) throws(Failure) {
        try save(bytes)
        if journalFD < 0 { _ = try loadJournal() }
        if let failure = FDIO.truncate(journalFD, to: 0) ?? FDIO.sync(journalFD) {
            throw Failure(message: "cannot empty \(path)/\(Self.journalName): \(failure.text)")
        }
        journalBytes = 0
        cutPending = false
    }

    private func checkStillOurs() throws(Failure) {
        guard case .success(let current) = FDIO.status(ofPath: path), current.isSameFile(as: identity) else {
            throw Failure(
                message:
                    "the state directory \(path) was removed or replaced while this daemon ran; nothing more is saved there"
            )
        }
    }

    /// The snapshot, or nil when there is none yet. A file that cannot be parsed is an error
    /// naming it: state is never silently thrown away.
    private func loadSnapshot() throws(Failure) -> JSONValue? {
        let fd: Int32
        switch FDIO.open(in: directoryFD, Self.stateName, [.readOnly, .noFollow, .nonBlocking]) {
        case .success(let opened): fd = opened
        case .failure(let failure) where failure.isMissing: return nil
        case .failure(let failure): throw Failure(message: "cannot read the state file \(file): \(failure.text)")
        }
        defer { FDIO.close(fd) }
        if case .success(let status) = FDIO.status(of: fd) {
            try Self.checkSafe(status, what: "the state file \(file)", kind: .regular)
        }
        let data: [UInt8]
        switch FileBytes.read(fd: fd) {
        case .success(let bytes): data = bytes
        case .failure(let error): throw Failure(message: "cannot read the state file \(file): \(error.text)")
        }
        do {
            let value = try JSONParser.parse(data, maxDepth: Self.maxDepth)
            lastWritten = data
            return value
        } catch {
            throw Failure(
                message:
                    "the state file \(file) is corrupt (\(error.message) at byte \(error.offset)); move it away to start afresh"
            )
        }
    }

    /// How deep saved state may nest: what the daemon accepts is refused when it arrives if it
    /// could not be read back within this.
    public static let maxDepth = 128

    /// Writes the snapshot unless `bytes` are what the file already holds.
    private func save(_ bytes: [UInt8]) throws(Failure) {
        guard bytes != lastWritten else { return }
        try checkStillOurs()
        let fd: Int32
        switch FDIO.open(in: directoryFD, Self.temporaryName, [.writeOnly, .create, .exclusive, .noFollow]) {
        case .success(let opened): fd = opened
        case .failure(let failure):
            throw Failure(message: "cannot create \(path)/\(Self.temporaryName): \(failure.text)")
        }
        let failure = FDIO.writeAll(fd, bytes) ?? FDIO.sync(fd)
        FDIO.close(fd)
        if let failure = failure ?? FDIO.rename(in: directoryFD, Self.temporaryName, to: Self.stateName) {
            FDIO.remove(in: directoryFD, Self.temporaryName)
            throw Failure(message: "cannot save the state to \(file): \(failure.text)")
        }
        _ = FDIO.sync(directoryFD)
        lastWritten = bytes
    }
}
