/// Who wants to know when a unit of work has ended (the inspector's live page): each watcher is
/// called with the world, still held, once the unit's changes are durable, and says whether it
/// wants the next one too. With none, a unit pays one check of an empty list.
public final class UnitWatchers {
    /// Returns false to be forgotten (its client left).
    public typealias Watcher = (World) -> Bool

    private var watchers: [Watcher] = []

    public var isEmpty: Bool { watchers.isEmpty }

    public func add(_ watcher: @escaping Watcher) { watchers.append(watcher) }

    func unitEnded(_ world: World) {
        guard !watchers.isEmpty else { return }
        watchers = watchers.filter { $0(world) }
    }
}
