/// Whom and which journey a unit of work concerned, as the server learned it while answering:
/// the journey a step belongs to and, once a node has read it, its user; the user whose token a
/// call presented or was issued. The inspector's timeline names them on the unit's entries, so a
/// person can follow one user or one journey across the faces.
public struct UnitConcern: Equatable, Sendable {
    public var user: String?
    public var journey: String?

    public init(user: String? = nil, journey: String? = nil) {
        self.user = user
        self.journey = journey
    }
}

extension EmbeddedAM {
    /// What the requests answered since the last call concerned (nil when nothing named a user or
    /// a journey), and forgets it: the Host takes it as each unit begins and ends.
    public func takeConcern() -> UnitConcern? {
        let journey = journeyEngine.concern
        let userId = oauth.concernedUserId
        journeyEngine.concern = nil
        oauth.concernedUserId = nil
        guard journey != nil || userId != nil else { return nil }
        var concern = journey ?? UnitConcern()
        if concern.user == nil, let userId { concern.user = users.find(id: userId)?.username ?? userId }
        return concern
    }
}
