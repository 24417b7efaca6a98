import AuthBridgeCore

/// An AM node that collects: it renders callbacks and takes their answers. AM's Page node shows
/// the callbacks of several together; alone, one is an interactive node of its own
/// (`AM.PageNode` serves both). Collectors read the journey (`context`) when they render, to
/// show what the user or the directory already holds.
protocol AMCollector: Sendable {
    /// How many callbacks it sends (fixed by its config): its share of the page's answers.
    var callbackCount: Int { get }
    /// Its outcomes; a page takes its last child's.
    var outcomes: [String] { get }

    /// Its callbacks: `answers` are what the client just sent (nil on the first showing),
    /// `failed` the failed policies to show, by the callback's index within the collector.
    func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback]
    /// Writes its answers into the journey's state; every child takes before any is reviewed.
    func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound)
    /// Whether the page must show again, and what failed.
    func review(_ answers: [CallbackAnswer], context: NodeContext) -> AMReview
    /// Where the page goes once no child asks to be shown again (the last child decides).
    func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction
}

struct AMReview {
    var failed: [Int: [String]] = [:]
    var showAgain = false
}

extension AMCollector {
    var outcomes: [String] { ["outcome"] }
    func review(_ answers: [CallbackAnswer], context: NodeContext) -> AMReview {
        AMReview(showAgain: answers.contains(where: \.validateOnly))
    }
    func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction { .outcome(outcomes[0]) }
}
