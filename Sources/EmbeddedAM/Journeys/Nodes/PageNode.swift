import AuthBridgeCore

/// AM's Page node: shows the callbacks of its children as one step and goes on (`next`) once
/// no child asks to be shown again. A repeated page gets a new authId, typed values kept except
/// passwords, failed policies filled in.
struct PageNode: JourneyNode {
    static let type = NodeType(name: "page") { (s: inout Settings) throws(SettingsError) in try PageNode(&s) }

    var stage: String?
    var header: String?
    var description: String?
    var children: [any PageChild]

    var outcomes: [String] { ["next"] }

    init(stage: String? = nil, header: String? = nil, description: String? = nil, children: [any PageChild]) {
        self.stage = stage
        self.header = header
        self.description = description
        self.children = children
    }

    init(_ s: inout Settings) throws(SettingsError) {
        stage = try s.string("stage")
        header = try s.string("header")
        description = try s.string("description")
        guard let list = try s.array("callbacks"), !list.isEmpty else {
            throw SettingsError(reason: "a page needs a non-empty \"callbacks\" array")
        }
        var children: [any PageChild] = []
        for (index, item) in list.enumerated() {
            do {
                children.append(try CallbackFormat.collector(json: item))
            } catch {
                throw SettingsError(reason: "callback \(index): \(error.reason)")
            }
        }
        self.children = children
    }

    func process(_ context: inout NodeContext) -> NodeAction {
        guard let answers = context.answers else { return .send(step(context, after: nil)) }
        let submission = PageSubmission(answers, children: children, context: &context)
        guard submission.showsAgain else { return .outcome("next") }
        return .send(step(context, after: submission))
    }

    private func step(_ context: NodeContext, after submission: PageSubmission?) -> Step {
        Step(stage: stage, header: header, description: description, callbacks: pageCallbacks(children, context, after: submission), isPage: true)
    }
}
