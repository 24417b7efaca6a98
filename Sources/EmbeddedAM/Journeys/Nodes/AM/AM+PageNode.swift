import AuthBridgeCore

extension AM {
    /// AM's Page node (`page` in AuthBridge's JSON, whose callback entries are its children), and
    /// an interactive node on its own (a page of one collector). The page
    /// sends its children's callbacks in child order, with `header`, `description` (localised)
    /// and `stage` verbatim; it shows again, new authId, while a child asks (a failed policy,
    /// `validateOnly`, terms not accepted), and then takes its last child's outcome. AM writes
    /// `_id` on page steps only, so a lone node's step is not a page step.
    struct PageNode: JourneyNode {
        static let type = NodeType(name: "PageNode") { (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            guard let list = try s.array("nodes"), !list.isEmpty else { throw SettingsError(reason: "a PageNode needs a non-empty \"nodes\" list of child nodes") }
            var children: [any PageChild] = []
            for (index, item) in list.enumerated() {
                guard case .string(let id)? = item["_id"], case .string(let type)? = item["nodeType"] else {
                    throw SettingsError(reason: "child \(index) of \"nodes\" needs \"_id\" and \"nodeType\" strings")
                }
                do throws(SettingsError) {
                    children.append(try source.child(id, type))
                } catch {
                    throw SettingsError(reason: "child \(index) (\(type) \(id)): \(error.reason)")
                }
            }
            return .node(PageNode(
                children: children, header: try s.localized("pageHeader"), description: try s.localized("pageDescription"),
                stage: try s.string("stage"), isPage: true))
        }
        .journeyFile(JourneyFileSyntax(name: "page", outcomeNames: ["outcome": "next"]) { (s: inout Settings) throws(SettingsError) in
            let stage = try s.string("stage")
            let header = try s.string("header")
            let description = try s.string("description")
            guard let list = try s.array("callbacks"), !list.isEmpty else {
                throw SettingsError(reason: "a page needs a non-empty \"callbacks\" array")
            }
            var children: [any PageChild] = []
            for (index, item) in list.enumerated() {
                do throws(SettingsError) {
                    children.append(try CallbackFormat.collector(json: item))
                } catch {
                    throw SettingsError(reason: "callback \(index): \(error.reason)")
                }
            }
            return [PageNode(
                children: children, header: header.map(LocalizedText.init(text:)), description: description.map(LocalizedText.init(text:)),
                stage: stage, isPage: true)]
        })

        /// A lone collector with the `stage` AuthBridge's JSON lets any node that sends a step
        /// have (in AM only a Page node has one); its callbacks carry no `_id`, as a lone node's.
        static func lone(_ collector: any PageChild, stage: String?) -> PageNode {
            PageNode(children: [collector], header: nil, description: nil, stage: stage, isPage: false)
        }

        var children: [any PageChild]
        var header: LocalizedText?
        var description: LocalizedText?
        var stage: String?
        var isPage: Bool

        var outcomes: [String] { children.last?.outcomes ?? ["outcome"] }
        /// A page of collectors that send nothing (a Choice Collector of one choice) goes on at once.
        private var sendsNothing: Bool { children.allSatisfy { $0.callbackCount == 0 } }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else {
                if sendsNothing { return decide(shares: children.map { _ in [] }, context: &context) }
                return .send(step(context, after: nil))
            }
            let submission = PageSubmission(answers, children: children, context: &context)
            guard submission.showsAgain else { return decide(shares: submission.shares, context: &context) }
            return .send(step(context, after: submission))
        }

        /// Every child but the last has one outcome; a child that cannot decide (a script
        /// without a scenario) ends the journey there.
        private func decide(shares: [[CallbackAnswer]], context: inout NodeContext) -> NodeAction {
            var last: NodeAction = .outcome("outcome")
            for (child, share) in zip(children, shares) {
                last = child.outcome(share, context: &context)
                if case .reply = last { return last }
            }
            return last
        }

        private func step(_ context: NodeContext, after submission: PageSubmission?) -> Step {
            Step(stage: stage, header: header?.text, description: description?.text,
                 callbacks: pageCallbacks(children, context, after: submission), isPage: isPage)
        }
    }
}
