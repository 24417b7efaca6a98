import AuthBridgeCore

/// The page child a journey file's callback entry becomes: it renders its callbacks with the
/// typed builders, writes the answer to its state path, and checks it against its policies.
struct CallbackCollector: PageChild {
    /// Where the answer goes. Passwords go to transient state, as in AM, unless the journey names
    /// a shared-state path for them.
    enum Target: Equatable, Sendable {
        case shared(String)
        case transient(String)
    }

    /// The keys answers are kept under in transient state. Journeys read them as before, when
    /// they lived in shared state (`NodeContext.value(path:)`).
    static let transientAnswerKeys: Set<String> = ["password"]

    /// How the answer is written.
    enum Storage: Sendable {
        /// The main input's value, when the client sent one.
        case value
        /// Every input the client sent, as an object by suffix (IdP token and type, App
        /// Integrity's five inputs).
        case allInputs
        /// `{question, answer}` added to the page's KBA list; the list so far is written.
        case kbaEntry
    }

    /// Renders the callbacks: `typed` is what the user typed last (nil: the callback's default),
    /// `failedPolicies` the failures to show.
    let render: @Sendable (_ typed: JSONValue?, _ failedPolicies: [String]) -> [Callback]
    /// nil: the answer is not kept (outputs, or inputs a journey did not give a path).
    var target: Target?
    let storage: Storage
    /// Whether a typed value is shown again when the page repeats (never for passwords).
    let echoes: Bool
    /// Validated callbacks check their answer against `policies`.
    let validated: Bool
    let policies: [PolicySpec]
    /// Which of its callbacks the client answers in (a WebAuthn entry answers in the hidden value
    /// that follows its metadata).
    let answerIndex: Int
    let callbackCount: Int

    init(
        target: Target?, storage: Storage = .value, echoes: Bool = true, validated: Bool = false,
        policies: [PolicySpec] = [],
        answerIndex: Int = 0,
        render: @escaping @Sendable (_ typed: JSONValue?, _ failedPolicies: [String]) -> [Callback]
    ) {
        self.render = render
        self.target = target
        self.storage = storage
        self.echoes = echoes
        self.validated = validated
        self.policies = policies
        self.answerIndex = answerIndex
        callbackCount = render(nil, []).count
    }

    func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
        render(echoes ? answers?[answerIndex].value : nil, failed[answerIndex] ?? [])
    }

    func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
        guard let target else { return }
        let answer = answers[answerIndex]
        let value: JSONValue
        switch storage {
        case .value:
            guard let typed = answer.value else { return }
            value = typed
        case .allInputs:
            value = .object(JSONObject(answer.inputs.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))
        case .kbaEntry:
            round.kbaAnswers.append([
                "question": answer.inputs["question"] ?? "", "answer": answer.inputs["answer"] ?? "",
            ])
            value = .array(round.kbaAnswers)
        }
        // A key holds one answer across both states, so the last answer written wins, as it did
        // when every answer went to shared state.
        switch target {
        case .shared(let path):
            context.shared.set(path: path, to: value)
            if let key = path.rootKey, Self.transientAnswerKeys.contains(key) { context.transient[key] = nil }
        case .transient(let path):
            context.transient.set(path: path, to: value)
            if let key = path.rootKey { context.shared[key] = nil }
        }
    }

    func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
        var failed: [PolicySpec] = []
        if validated {
            let evaluator = PolicyEvaluator(users: context.users)
            failed = evaluator.failed(policies, value: answers[answerIndex].value ?? .null, sharedState: context.shared)
        }
        let failures = failed.map { PolicyEvaluator.amFormat(requirement: $0.requirement, params: $0.params) }
        var review = PageChildReview(
            failed: failures.isEmpty ? [:] : [answerIndex: failures],
            showAgain: answers.contains(where: \.validateOnly) || !failures.isEmpty)
        if !failed.isEmpty { review.failedPolicies = [(fieldName, failed.map(\.requirement))] }
        return review
    }

    /// What the answer is called in a failure reason: the state path it is written to.
    private var fieldName: String {
        switch target {
        case .shared(let path)?, .transient(let path)?: path
        case nil: "callback \(answerIndex)"
        }
    }
}
