import AuthBridgeCore
import IdentityServer

/// An AM SSO session, named by its token (the `iPlanetDirectoryPro` cookie value).
public struct SSOSession: Equatable, Sendable {
    public var tokenId: String
    public var userId: String
    public var username: String
    public var authTime: Double
    /// When the session was last used (created, or named by a request that refreshes AM's idle
    /// time): it expires `maxIdleTime` after this.
    public var lastAccess: Double
    /// AM's `org.forgerock.openidconnect.ops` id: how an id_token names its session.
    public var opsId: String
    /// The journeys the session has completed (AM's `Service` session property), sorted: a start
    /// of one of them with this session's cookie needs no new authentication.
    public var journeys: [String]
}

/// How long sessions live, as AM's session service sets it: "Maximum Session Time" (120 minutes
/// by default) from the login, "Maximum Idle Time" (30 minutes) from the last use; and how many
/// the store keeps at most, the least recently used going first past it (AM: Configure > Global
/// Services > Session, Dynamic Attributes; the defaults as the Access Manager administration
/// guide's "Session Service Attributes" gives them,
/// https://docs.oracle.com/cd/E19396-01/817-7647/sessiona.html).
public struct SessionLimits: Equatable, Sendable {
    /// Seconds from the login to the end, however busy the session.
    public var maxSessionTime: Double
    /// Seconds without use after which the session ends.
    public var maxIdleTime: Double
    /// Sessions kept at most, expired or not.
    public var cap: Int

    public init(maxSessionTime: Double = 120 * 60, maxIdleTime: Double = 30 * 60, cap: Int = 2_000) {
        self.maxSessionTime = maxSessionTime
        self.maxIdleTime = maxIdleTime
        self.cap = cap
    }

    /// Whether `session` is past either time at `now`.
    func expired(_ session: SSOSession, now: Double) -> Bool {
        now >= session.authTime + maxSessionTime || now >= session.lastAccess + maxIdleTime
    }
}

public final class SessionStore {
    fileprivate var sessions: [String: SSOSession] = [:]
    /// Sessions by `opsId` (how an id token names its session): endSession looks one up by it.
    fileprivate var tokenByOpsId: [String: String] = [:]
    /// Sessions created or ended since the state was last saved (recorded only when something
    /// saves them).
    fileprivate var changed: Set<String> = []
    var tracksChanges = false
    /// Told of every session that ends, with why: the one observer the Host wires to the
    /// credentials' owner, so a session ended on one face is gone on every other.
    public var onEnded: ((SSOSession, SessionEndCause) -> Void)?
    private let random: RandomSource
    private let clock: Clock
    public let limits: SessionLimits
    private var pruning: Pruning
    /// The order of last use (a counter, not a time: while the virtual clock stands still every
    /// session has the same time, and which one the cap drops must not depend on hashing).
    private var recency: [String: Int] = [:]
    private var uses = 0

    public init(random: RandomSource, clock: Clock, limits: SessionLimits = SessionLimits()) {
        self.random = random
        self.clock = clock
        self.limits = limits
        pruning = Pruning(cap: limits.cap)
    }

    /// A new session for `user`, recording the journeys it satisfies.
    public func create(for user: DirectoryUser, journeys: [String]) -> SSOSession {
        // Shaped like AM's tokens: an opaque part, then `.*` and a serialized-session-id suffix.
        let tokenId =
            Base64URL.encode(random.bytes(20)) + ".*AAJTSQACMDIAAlNLABw"
            + Base64URL.encode(random.bytes(21)) + "AAR0eXBlAANDVFMAAlMxAAIwMQ..*"
        let session = SSOSession(
            tokenId: tokenId, userId: user.id, username: user.username, authTime: clock.now, lastAccess: clock.now,
            opsId: Base64URL.encode(random.bytes(18)), journeys: Array(Set(journeys)).sorted())
        sessions[tokenId] = session
        tokenByOpsId[session.opsId] = tokenId
        touch(tokenId)
        if tracksChanges { changed.insert(tokenId) }
        prune()
        return session
    }

    /// The live session named by `tokenId`, as it is, without refreshing its idle time (AM's
    /// `validate` and `getSessionInfo`). One past its time ends now (`SessionEndCause.expired`)
    /// and is not found, as AM no longer knows it.
    public func find(_ tokenId: String) -> SSOSession? {
        guard let session = sessions[tokenId] else { return nil }
        guard !limits.expired(session, now: clock.now) else {
            end(tokenId, cause: .expired)
            return nil
        }
        return session
    }

    /// The live session named by `tokenId`, its idle time refreshed: a request that uses it (a
    /// journey started with its cookie, an authorization, AM's `refresh` action).
    public func use(_ tokenId: String) -> SSOSession? {
        guard var session = find(tokenId) else { return nil }
        session.lastAccess = clock.now
        sessions[tokenId] = session
        touch(tokenId)
        if tracksChanges { changed.insert(tokenId) }
        return session
    }

    private func touch(_ tokenId: String) {
        uses += 1
        recency[tokenId] = uses
    }

    public func find(opsId: String) -> SSOSession? { tokenByOpsId[opsId].flatMap { find($0) } }

    @discardableResult
    public func end(_ tokenId: String, cause: SessionEndCause) -> Bool {
        guard let session = sessions.removeValue(forKey: tokenId) else { return false }
        tokenByOpsId[session.opsId] = nil
        recency[tokenId] = nil
        if tracksChanges { changed.insert(tokenId) }
        onEnded?(session, cause)
        return true
    }

    public var count: Int { sessions.count }

    /// Every live session, by token (expired ones are ended as `find` ends them).
    public var all: [SSOSession] { sessions.keys.sorted().compactMap { find($0) } }

    /// Stores a session as given (an import), replacing one with the same token.
    func put(_ session: SSOSession) {
        if let old = sessions[session.tokenId] { tokenByOpsId[old.opsId] = nil }
        sessions[session.tokenId] = session
        tokenByOpsId[session.opsId] = session.tokenId
        touch(session.tokenId)
        if tracksChanges { changed.insert(session.tokenId) }
        prune()
    }

    /// Keeps the sessions bounded as they are added: those past their time end (`expired`), and
    /// past the cap the least recently used end too (`evicted`), each told to the observer, in
    /// token order so that what follows is replayable.
    private func prune() {
        let now = clock.now
        let before = sessions.count
        var remaining = sessions
        pruning.run(
            &remaining, expired: { self.limits.expired($0, now: now) }, rank: { Double(self.recency[$0.tokenId] ?? 0) })
        guard remaining.count < before else { return }
        for tokenId in sessions.keys.filter({ remaining[$0] == nil }).sorted() {
            end(tokenId, cause: limits.expired(sessions[tokenId]!, now: now) ? .expired : .evicted)
        }
    }

    /// Ends every session of one user (an administrator's revocation); returns how many.
    func endAll(userId: String) -> Int {
        let ended = sessions.values.filter { $0.userId == userId }.sorted { $0.tokenId < $1.tokenId }
        for session in ended { end(session.tokenId, cause: .administrator) }
        return ended.count
    }
}

// MARK: saved state

extension SessionStore {
    /// Every session, keyed by its token.
    var stateEntries: [StateEntry] { sessions.keys.sorted().map { StateEntry([$0], Self.stateJSON(sessions[$0]!)) } }

    /// The sessions created or ended since the last call.
    func takeStateEdits() -> [StateEdit] {
        defer { changed.removeAll() }
        return changed.sorted().map { StateEdit([$0], sessions[$0].map(Self.stateJSON)) }
    }

    static func stateJSON(_ session: SSOSession) -> JSONValue {
        [
            "tokenId": .string(session.tokenId), "userId": .string(session.userId),
            "username": .string(session.username), "authTime": .double(session.authTime),
            "lastAccess": .double(session.lastAccess),
            "opsId": .string(session.opsId), "journeys": .array(session.journeys.map { .string($0) }),
        ]
    }

    func restore(_ readers: [StateReader]) throws(StateError) {
        var restored: [String: SSOSession] = [:]
        for reader in readers {
            let authTime = try reader.time("authTime")
            let session = SSOSession(
                tokenId: try reader.string("tokenId"), userId: try reader.string("userId"),
                username: try reader.string("username"), authTime: authTime,
                // State saved before sessions expired has no last use: the login stands for it. A
                // value that is there must be a time (`null` included in what is refused).
                lastAccess: reader.object["lastAccess"] == nil ? authTime : try reader.time("lastAccess"),
                opsId: try reader.string("opsId"),
                // State saved before sessions recorded their journeys: such a session satisfies none,
                // so a start runs the journey, as it did then.
                journeys: reader.has("journeys") ? try reader.strings("journeys") : [])
            restored[session.tokenId] = session
        }
        sessions = restored
        tokenByOpsId = Dictionary(restored.values.map { ($0.opsId, $0.tokenId) }, uniquingKeysWith: { a, _ in a })
        let byUse = restored.values.sorted { ($0.lastAccess, $0.tokenId) < ($1.lastAccess, $1.tokenId) }
        recency = Dictionary(uniqueKeysWithValues: byUse.enumerated().map { ($0.element.tokenId, $0.offset + 1) })
        uses = byUse.count
        changed.removeAll()
    }
}
