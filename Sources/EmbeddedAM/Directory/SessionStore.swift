import AuthBridgeCore
import IdentityServer

/// An AM SSO session, named by its token (the `iPlanetDirectoryPro` cookie value).
public struct SSOSession: Equatable, Sendable {
    public var tokenId: String
    public var userId: String
    public var username: String
    public var authTime: Double
    /// AM's `org.forgerock.openidconnect.ops` id: how an id_token names its session.
    public var opsId: String
    /// The journeys the session has completed (AM's `Service` session property), sorted: a start
    /// of one of them with this session's cookie needs no new authentication.
    public var journeys: [String]
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

    public init(random: RandomSource, clock: Clock) {
        self.random = random
        self.clock = clock
    }

    /// A new session for `user`, recording the journeys it satisfies.
    public func create(for user: DirectoryUser, journeys: [String]) -> SSOSession {
        // Shaped like AM's tokens: an opaque part, then `.*` and a serialized-session-id suffix.
        let tokenId = Base64URL.encode(random.bytes(20)) + ".*AAJTSQACMDIAAlNLABw"
            + Base64URL.encode(random.bytes(21)) + "AAR0eXBlAANDVFMAAlMxAAIwMQ..*"
        let session = SSOSession(
            tokenId: tokenId, userId: user.id, username: user.username, authTime: clock.now,
            opsId: Base64URL.encode(random.bytes(18)), journeys: Array(Set(journeys)).sorted())
        sessions[tokenId] = session
        tokenByOpsId[session.opsId] = tokenId
        if tracksChanges { changed.insert(tokenId) }
        return session
    }

    public func find(_ tokenId: String) -> SSOSession? { sessions[tokenId] }

    public func find(opsId: String) -> SSOSession? { tokenByOpsId[opsId].flatMap { sessions[$0] } }

    @discardableResult
    public func end(_ tokenId: String, cause: SessionEndCause) -> Bool {
        guard let session = sessions.removeValue(forKey: tokenId) else { return false }
        tokenByOpsId[session.opsId] = nil
        if tracksChanges { changed.insert(tokenId) }
        onEnded?(session, cause)
        return true
    }

    public var count: Int { sessions.count }

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
            "opsId": .string(session.opsId), "journeys": .array(session.journeys.map { .string($0) }),
        ]
    }

    func restore(_ readers: [StateReader]) throws(StateError) {
        var restored: [String: SSOSession] = [:]
        for reader in readers {
            let session = SSOSession(
                tokenId: try reader.string("tokenId"), userId: try reader.string("userId"),
                username: try reader.string("username"), authTime: try reader.time("authTime"),
                opsId: try reader.string("opsId"),
                // State saved before sessions recorded their journeys: such a session satisfies none,
                // so a start runs the journey, as it did then.
                journeys: reader.has("journeys") ? try reader.strings("journeys") : [])
            restored[session.tokenId] = session
        }
        sessions = restored
        tokenByOpsId = Dictionary(restored.values.map { ($0.opsId, $0.tokenId) }, uniquingKeysWith: { a, _ in a })
        changed.removeAll()
    }
}
