import AuthBridgeCore

extension AuthBridge {
    /// AuthBridge's own (`setFailureDetails`; exports cannot name it): the message and details the
    /// journey's failure body will carry. `next`.
    struct SetFailureDetailsNode: JourneyNode {
        static let type = NodeType(
            name: "AuthBridge.SetFailureDetailsNode",
            journeyFile: JourneyFileSyntax(name: "setFailureDetails") { (s: inout Settings) throws(SettingsError) in
                [try SetFailureDetailsNode(&s)]
            })

        var message: String?
        var details: JSONObject

        var outcomes: [String] { ["next"] }

        init(_ s: inout Settings) throws(SettingsError) {
            message = try s.string("message")
            details = try s.object("details") ?? [:]
        }

        func process(_ context: inout NodeContext) -> NodeAction {
            if let message { context.failureMessage = message }
            for member in details.members { context.failureDetail[member.key] = member.value }
            return .outcome("next")
        }
    }
}
