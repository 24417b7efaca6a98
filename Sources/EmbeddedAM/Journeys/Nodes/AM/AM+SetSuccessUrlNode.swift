import AuthBridgeCore

extension AM {
    /// AM's Success URL node: puts `successUrl` into shared state, where the success reply reads
    /// it (`successUrl` of the `/authenticate` body) in place of the realm's default.
    struct SetSuccessUrlNode: JourneyNode {
        static let type = NodeType(name: "SetSuccessUrlNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let url = try s.string("successUrl", default: "")
            guard !url.isEmpty else {
                throw SettingsError(reason: "\"successUrl\" is required: the URL the client goes to after success")
            }
            return .node(SetSuccessUrlNode(url: url))
        }

        /// AM's shared-state key, read by `SuccessNode`.
        static let key = "successUrl"

        var url: String
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            context.shared[Self.key] = .string(url)
            return .outcome("outcome")
        }
    }
}
