/// Keeps a collection that grows with traffic bounded. Entries past their expiry go first; when
/// it is still over `cap`, the oldest go (by the rank the owner gives), down to 90 % of it. It
/// runs only once the collection has doubled since the last run (or reached the cap), so its cost
/// per insert stays constant however large the collection is.
struct Pruning {
    let cap: Int
    private var nextRun = 64

    init(cap: Int) { self.cap = cap }

    /// Prunes `items` when due; `expired` says which entries are past their time, `rank` orders
    /// the rest oldest first.
    mutating func run<Key, Value>(
        _ items: inout [Key: Value], expired: (Value) -> Bool, rank: (Value) -> Double
    ) {
        guard items.count > nextRun else { return }
        items = items.filter { !expired($0.value) }
        if items.count > cap {
            let keep = cap * 9 / 10
            let oldest = items.sorted { rank($0.value) < rank($1.value) }.prefix(items.count - keep)
            for (key, _) in oldest { items[key] = nil }
        }
        nextRun = min(max(64, items.count * 2), cap)
    }
}
