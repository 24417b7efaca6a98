/// What a node sends the client and then waits for: callbacks, with the page's stage, header
/// and description when it has them.
struct Step: Equatable, Sendable {
    var stage: String?
    var header: String?
    var description: String?
    var callbacks: [Callback]
    /// Each callback's `_id`, as AM's Page node hands them out (`PageCallbackIds`); nil on a step
    /// an interactive node sends by itself, whose callbacks AM sends without `_id`.
    var ids: [Int]?

    init(
        stage: String? = nil, header: String? = nil, description: String? = nil, callbacks: [Callback],
        ids: [Int]? = nil
    ) {
        self.stage = stage
        self.header = header
        self.description = description
        self.callbacks = callbacks
        self.ids = ids
    }

    /// Whether AM's Page node sent it (as opposed to an interactive node sending its own callbacks).
    var isPage: Bool { ids != nil }
}
