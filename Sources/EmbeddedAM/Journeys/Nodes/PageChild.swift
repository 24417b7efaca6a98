import AuthBridgeCore

/// A node that collects: it renders callbacks and takes their answers. AM's Page node shows the
/// callbacks of several together; alone, one of AM's collecting nodes is an interactive node of
/// its own (`AM.PageNode` serves both). A built-in journey's callback entry (`CallbackCollector`)
/// and AM's collecting nodes (Platform Username, Attribute Collector, KBA Definition…) are both
/// children. They read the journey (`context`) when they render, to show what the user or the
/// directory already holds.
protocol PageChild: Sendable {
    /// How many callbacks it sends (fixed by its config): its share of the page's answers.
    var callbackCount: Int { get }
    /// Its outcomes; an AM page takes its last child's.
    var outcomes: [String] { get }

    /// Its callbacks: `answers` are what the client just sent (nil on the first showing), shown
    /// again where the callback echoes them; `failed` the failed policies to show, by the
    /// callback's index within the child.
    func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback]
    /// Writes its answers into the journey's state. Every child takes its answers before any is
    /// reviewed, so a policy may look at what a later callback of the page answered.
    func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound)
    /// Whether the page must show again, and what failed.
    func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview
    /// Where an AM page goes once no child asks to be shown again (the last child decides).
    func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction
}

struct PageChildReview {
    /// Failed policies by the callback's index within the child.
    var failed: [Int: [String]] = [:]
    /// The same, typed: the field each callback writes and the requirements it failed
    /// (`MIN_LENGTH`), for the journey's failure reason.
    var failedPolicies: [(field: String, requirements: [String])] = []
    /// A policy failed, or the client asked only to validate (`validateOnly`).
    var showAgain = false
}

extension PageChildReview {
    /// A child of one validated callback: the policies its answer failed.
    init(failed: [PolicySpec], field: String, validateOnly: Bool) {
        self.failed = [0: failed.map { PolicyEvaluator.amFormat(requirement: $0.requirement, params: $0.params) }]
        self.failedPolicies = failed.isEmpty ? [] : [(field, failed.map(\.requirement))]
        self.showAgain = !failed.isEmpty || validateOnly
    }
}

extension PageChild {
    var outcomes: [String] { ["outcome"] }
    func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
        PageChildReview(showAgain: answers.contains(where: \.validateOnly))
    }
    func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction { .outcome(outcomes[0]) }
}

/// What the children of one page collect together while taking one submission: AM's KBA
/// Definition node stores the questions of all its callbacks as one list, so each KBA callback of
/// a page adds its answer to the list the earlier ones started.
struct PageRound {
    var kbaAnswers: [JSONValue] = []
}

/// One submission to a page: every child takes its share of the answers, then every child
/// reviews its share, in the order the page runs them (`AM.PageNode.order`). Shares and reviews
/// are by child index.
struct PageSubmission {
    let shares: [[CallbackAnswer]]
    let reviews: [PageChildReview]

    init(shares: [[CallbackAnswer]], children: [any PageChild], order: [Int], context: inout NodeContext) {
        self.shares = shares
        var round = PageRound()
        for index in order { children[index].take(shares[index], into: &context, round: &round) }
        var reviews = Array(repeating: PageChildReview(), count: children.count)
        for index in order { reviews[index] = children[index].review(shares[index], context: context) }
        self.reviews = reviews
    }

    var showsAgain: Bool { reviews.contains(where: \.showAgain) }

    /// A page shown again because policies failed: the reason the journey gives if it ends in
    /// failure before a good answer comes (`policy_failed`, with the fields and requirements).
    var policyReason: JourneyFailure.Reason? {
        let failed = reviews.flatMap(\.failedPolicies)
        guard !failed.isEmpty else { return nil }
        let described = failed.map { "\($0.field) (\($0.requirements.joined(separator: ", ")))" }
        return JourneyFailure.Reason(
            "policy_failed", "policies failed for " + described.joined(separator: "; "),
            [
                "policies": .array(
                    failed.map {
                        .object([
                            "field": .string($0.field), "requirements": .array($0.requirements.map(JSONValue.string)),
                        ])
                    })
            ])
    }
}

/// Answers split among children in order, each taking as many as it has callbacks (the caller
/// has checked that the counts add up): a lone collector's step and a scenario's callbacks.
func pageShares(_ answers: [CallbackAnswer], callbackCounts: [Int]) -> [[CallbackAnswer]] {
    var shares: [[CallbackAnswer]] = []
    var start = 0
    for count in callbackCounts {
        shares.append(Array(answers[start..<(start + count)]))
        start += count
    }
    return shares
}
