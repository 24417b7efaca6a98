/// What a node sends the client and then waits for: callbacks, with the page's stage, header
/// and description when it has them.
struct Step: Equatable, Sendable {
    var stage: String?
    var header: String?
    var description: String?
    var callbacks: [Callback]
    /// Whether AM's Page node sent it (as opposed to an interactive node sending its own
    /// callbacks); AM numbers callbacks with `_id` only on Page steps.
    var isPage: Bool

    init(stage: String? = nil, header: String? = nil, description: String? = nil, callbacks: [Callback], isPage: Bool = false) {
        self.stage = stage
        self.header = header
        self.description = description
        self.callbacks = callbacks
        self.isPage = isPage
    }
}
