import AuthBridgeCore

extension AM {
    /// AM's Zero Page Login Collector: takes the username and password from request headers
    /// (`usernameHeader`, `passwordHeader`). Requests reaching the embedded server carry no
    /// headers (the bridge calls `/authenticate` with a body only), so it always goes on along
    /// `false`, as AM does when neither header is present. The settings are still checked, so a
    /// broken export stops the start as it would on AM.
    struct ZeroPageLoginNode: JourneyNode {
        static let type = NodeType(name: "ZeroPageLoginNode", asksForInput: false) {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            _ = try s.string("usernameHeader", default: "X-OpenAM-Username")
            _ = try s.string("passwordHeader", default: "X-OpenAM-Password")
            _ = try s.bool("allowWithoutReferer", default: true)
            _ = try s.strings("referrerWhiteList", nonEmpty: false)
            return .node(ZeroPageLoginNode())
        }

        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction { .outcome("false") }
    }
}
