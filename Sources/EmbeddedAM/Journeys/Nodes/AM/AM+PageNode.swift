import AuthBridgeCore

extension AM {
    /// AM's Page node (`page` in AuthBridge's JSON, whose callback entries are its children), and
    /// an interactive node on its own (a page of one collector). The page sends its children's
    /// callbacks in the order it runs them, with `header`, `description` (localised) and `stage`
    /// verbatim; it shows again, new authId, while a child asks (a failed policy, `validateOnly`,
    /// terms not accepted), and then takes its last child's outcome. As AM's (`PageNode.java` in
    /// ForgeRock/am-external, releases/8.0.2):
    /// - each callback gets an `_id` from `PageCallbackIds`; answers go to the child whose
    ///   callback's `_id` they carry; on a showing again only the children that ask again get
    ///   new ids;
    /// - a Select Identity Provider that is the page's last child runs first: its callback leads
    ///   the step, and when the user picks a social provider the other children are skipped
    ///   (`processNodes`; `PageNodeTest.shouldReturnAllCallbacksWithSelectIdPNodeWithIdPCallbackFirst`,
    ///   `shouldSkipAllOtherNodesWhenSelectIdPReturnsSocialAuthenticationOutcome`).
    /// A lone node's step is not a page step: AM writes no `_id` on it.
    struct PageNode: JourneyNode {
        static let type = NodeType(name: "PageNode") {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            guard let list = try s.array("nodes"), !list.isEmpty else {
                throw SettingsError(reason: "a PageNode needs a non-empty \"nodes\" list of child nodes")
            }
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
            return .node(
                PageNode(
                    children: children, header: try s.localized("pageHeader"),
                    description: try s.localized("pageDescription"),
                    stage: try s.string("stage"), isPage: true))
        }
        .journeyFile(
            JourneyFileSyntax(name: "page", outcomeNames: ["outcome": "next"]) {
                (s: inout Settings) throws(SettingsError) in
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
                return [
                    PageNode(
                        children: children, header: header.map(LocalizedText.init(text:)),
                        description: description.map(LocalizedText.init(text:)),
                        stage: stage, isPage: true)
                ]
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

        /// The order AM runs the children in: a Select Identity Provider last on the page first.
        var order: [Int] {
            guard isPage, children.count > 1, children.last is SelectIdPNode else { return Array(children.indices) }
            return [children.count - 1] + children.indices.dropLast()
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard let answers = context.answers else {
                if skipsToSocial([], context: &context) {
                    return finish(only: children.count - 1, share: [], context: &context)
                }
                if sendsNothing { return finish(shares: children.map { _ in [] }, context: &context) }
                return .send(step(&context, after: nil))
            }
            let shares = shares(answers, context: context)
            if skipsToSocial(shares.last ?? [], context: &context) {
                return finish(only: children.count - 1, share: shares[children.count - 1], context: &context)
            }
            let submission = PageSubmission(shares: shares, children: children, order: order, context: &context)
            guard submission.showsAgain else { return finish(shares: submission.shares, context: &context) }
            if let reason = submission.policyReason {
                logInfo("journey \(context.journeyName), node \(context.nodeId): \(reason.message); shown again")
                context.failureReason = reason
            }
            return .send(step(&context, after: submission))
        }

        /// Whether a Select Identity Provider run first settles the page on a social provider
        /// (what the user picked, or the only option): then it alone takes its answer.
        private func skipsToSocial(_ share: [CallbackAnswer], context: inout NodeContext) -> Bool {
            guard order.first != 0, let select = children.last as? SelectIdPNode, select.picksSocialProvider(share)
            else { return false }
            var round = PageRound()
            select.take(share, into: &context, round: &round)
            return true
        }

        /// Each child's answers: on a page, those carrying the ids the page gave its callbacks; a
        /// lone node's are all its one child's. A child whose answers went missing (its map was
        /// overwritten through a `sharedState` path) gets empty ones rather than too few.
        private func shares(_ answers: [CallbackAnswer], context: NodeContext) -> [[CallbackAnswer]] {
            guard isPage else { return [answers] }
            let ids = PageCallbackIds(shared: context.shared)
            var shares = children.map { _ in [CallbackAnswer]() }
            for answer in answers {
                if let id = answer.id, let child = ids.child(of: id), shares.indices.contains(child) {
                    shares[child].append(answer)
                }
            }
            return zip(children, shares).map { child, share in
                share.count == child.callbackCount
                    ? share : Array(repeating: CallbackAnswer(), count: child.callbackCount)
            }
        }

        /// The page is done: every child that ran decides in turn and the last child's outcome
        /// is the page's; a child that cannot decide (a script without a scenario) ends the
        /// journey there. The ids are forgotten (`mapOutcome`).
        private func finish(shares: [[CallbackAnswer]], context: inout NodeContext) -> NodeAction {
            var outcome: NodeAction = .outcome("outcome")
            for index in order {
                let action = children[index].outcome(shares[index], context: &context)
                if case .reply = action { return action }
                if index == children.count - 1 { outcome = action }
            }
            if isPage { PageCallbackIds.remove(from: &context.shared) }
            return outcome
        }

        private func finish(only index: Int, share: [CallbackAnswer], context: inout NodeContext) -> NodeAction {
            let action = children[index].outcome(share, context: &context)
            if isPage { PageCallbackIds.remove(from: &context.shared) }
            return action
        }

        /// The step: the children's callbacks in the order they run. On a page each callback has
        /// an id; a child shown again with its answers kept keeps the ids they carried, a child
        /// that asks (all of them on the first showing) gets new ones.
        private func step(_ context: inout NodeContext, after submission: PageSubmission?) -> Step {
            var ids = submission == nil ? PageCallbackIds() : PageCallbackIds(shared: context.shared)
            var callbacks: [Callback] = []
            var stepIds: [Int] = []
            for index in order {
                let share = submission?.shares[index]
                let sent = children[index].callbacks(
                    context, answers: share, failed: submission?.reviews[index].failed ?? [:])
                callbacks += sent
                let kept = submission?.reviews[index].showAgain == false ? share?.compactMap(\.id) ?? [] : []
                stepIds += kept.count == sent.count ? kept : sent.map { _ in ids.add(child: index) }
            }
            guard isPage else {
                return Step(stage: stage, header: header?.text, description: description?.text, callbacks: callbacks)
            }
            ids.write(into: &context.shared)
            return Step(
                stage: stage, header: header?.text, description: description?.text, callbacks: callbacks, ids: stepIds)
        }
    }
}
