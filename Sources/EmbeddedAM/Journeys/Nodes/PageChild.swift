import AuthBridgeCore

/// A node inside a Page node. AM's Page node holds nodes that only collect (Platform Username,
/// Attribute Collector, KBA Definition, Accept Terms…): each renders its callbacks and takes its
/// answers. The page shows their callbacks together and moves on when no child asks to be shown
/// again.
protocol PageChild: Sendable {
    /// How many callbacks the child sends: its share of the page's answers.
    var callbackCount: Int { get }

    /// Its callbacks. `answers` are what the client just sent (nil on the page's first showing),
    /// shown again where the callback echoes them; `failedPolicies` what the last review found.
    func callbacks(answers: [CallbackAnswer]?, failedPolicies: [String]) -> [Callback]

    /// Writes its answers into the journey's state. Every child takes its answers before any is
    /// reviewed, so a policy may look at what a later callback of the page answered.
    func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound)

    /// Checks its answers once every child has taken theirs.
    func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview
}

struct PageChildReview {
    var failedPolicies: [String] = []
    /// A policy failed, or the client asked only to validate (`validateOnly`).
    var showAgain = false
}

/// What the children of one page collect together while taking one submission: AM's KBA
/// Definition node stores the questions of all its callbacks as one list, so each KBA callback of
/// a page adds its answer to the list the earlier ones started.
struct PageRound {
    var kbaAnswers: [JSONValue] = []
}

/// A page's answers split among its children in order, each taking as many as it has callbacks
/// (the caller has checked that the counts add up): both page nodes and a scenario's callbacks.
func pageShares(_ answers: [CallbackAnswer], callbackCounts: [Int]) -> [[CallbackAnswer]] {
    var shares: [[CallbackAnswer]] = []
    var start = 0
    for count in callbackCounts {
        shares.append(Array(answers[start..<(start + count)]))
        start += count
    }
    return shares
}
