/// Who wants to know when a unit of work has ended (the inspector's live page): each watcher is
/// called with the world, still held, once the unit's changes are durable, and says whether it
/// wants the next one too. With none, a unit pays one check of an empty list.
public final class UnitWatchers {
    /// Returns false to be forgotten (its client left).
    public typealias Watcher = (World) -> Bool

    private var watchers: [Watcher] = []
    /// Set by a unit that only reads for a watcher (the inspector's snapshot): none is told of it.
    private var quiet = false

    public var isEmpty: Bool { watchers.isEmpty }

    public func add(_ watcher: @escaping Watcher) { watchers.append(watcher) }

    /// Called inside a unit that only reads the world for a watcher: as it ends, no watcher is
    /// told, so a watcher that reads does not wake itself (or another) again.
    public func keepThisUnitQuiet() { quiet = true }

    func unitEnded(_ world: World) {
        guard !quiet else {
            quiet = false
            return
        }
        guard !watchers.isEmpty else { return }
        watchers = watchers.filter { $0(world) }
    }
}
