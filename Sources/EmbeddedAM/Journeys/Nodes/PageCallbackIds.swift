import AuthBridgeCore

/// The ids AM's Page node gives its children's callbacks, and which child sent each: a map kept
/// in shared state under `pageNodeCallbacks` while the page runs and removed when it finishes
/// (`PageNode.java` `mapCallbacks`, `mapOutcome` in ForgeRock/am-external, releases/8.0.2). A
/// new callback takes the highest id used so far plus one (`getAndAddIdentifier`), so when the
/// page shows again a child that asks again gets new, higher ids while the others keep theirs
/// (`PageNodeTest.shouldReturnExistingCallbacksForNodesWithOutcome`: 0, 2, 3).
struct PageCallbackIds: Equatable {
    static let sharedKey = "pageNodeCallbacks"

    /// Child index by callback id.
    private(set) var children: [Int: Int] = [:]
    /// The id the next callback gets: one past the highest so far, kept so that numbering a page
    /// of n callbacks costs O(n), not a search of the map for each.
    private var nextId = 0

    init() {}

    /// The map a page left in shared state when it sent its step (empty if there is none).
    init(shared: JSONObject) {
        for member in shared[Self.sharedKey]?.objectValue?.members ?? [] {
            if let id = Int(member.key), let child = member.value.intValue { children[id] = Int(child) }
        }
        nextId = (children.keys.max() ?? -1) + 1
    }

    /// A new id for a callback of `child`.
    mutating func add(child: Int) -> Int {
        let id = nextId
        nextId += 1
        children[id] = child
        return id
    }

    func child(of id: Int) -> Int? { children[id] }

    /// Kept in shared state as AM keeps it: the ids as strings, in order.
    func write(into shared: inout JSONObject) {
        shared[Self.sharedKey] = .object(
            JSONObject(children.keys.sorted().map { (String($0), .int(Int64(children[$0]!))) }))
    }

    static func remove(from shared: inout JSONObject) { shared[sharedKey] = nil }
}
