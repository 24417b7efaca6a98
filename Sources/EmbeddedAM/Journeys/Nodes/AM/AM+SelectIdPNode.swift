import AuthBridgeCore

extension AM {
    /// AM's Select Identity Provider: a SelectIdPCallback listing the export's enabled social
    /// providers with their `uiConfig` (`socialIdentityProviders`, narrowed to
    /// `filteredProviders` when that is not empty) and,
    /// with `includeLocalAuthentication`, `localAuthentication` last. The answer names one: a
    /// provider → `socialAuthentication` with `selectedIdp` in shared state; `localAuthentication`,
    /// or nothing chosen (the input's "" default) → `localAuthentication`. An unknown name shows
    /// the callback again. With one option there is no callback: it goes on along that option.
    /// `offerOnlyExisting` would need the user's linked accounts, which the directory does not
    /// keep: every provider is offered.
    struct SelectIdPNode: PageChild {
        static let type = NodeType(name: "SelectIdPNode") {
            (s: inout Settings, source: AMNodeSource) throws(SettingsError) in
            let filter = try s.strings("filteredProviders", nonEmpty: false) ?? []
            let local = try s.bool("includeLocalAuthentication", default: true)
            _ = try s.bool("offerOnlyExisting", default: false)
            let social = source.socialProviders.filter { filter.isEmpty || filter.contains($0.name) }
            guard !social.isEmpty || local else {
                throw SettingsError(
                    reason:
                        "no provider to offer: the export has no socialIdentityProviders\(filter.isEmpty ? "" : " among filteredProviders") and includeLocalAuthentication is false"
                )
            }
            return .collector(SelectIdPNode(social: social, local: local))
        }

        static let local = "localAuthentication"
        static let selectedKey = "selectedIdp"

        var social: [AMSocialProvider]
        var local: Bool
        var callbackCount: Int { social.count + (local ? 1 : 0) == 1 ? 0 : 1 }
        var outcomes: [String] { ["socialAuthentication", "localAuthentication"] }

        func callbacks(_ context: NodeContext, answers: [CallbackAnswer]?, failed: [Int: [String]]) -> [Callback] {
            guard callbackCount == 1 else { return [] }
            var providers: [JSONValue] = social.map { ["provider": .string($0.name), "uiConfig": $0.uiConfig] }
            if local { providers.append(["provider": .string(Self.local)]) }
            return [.selectIdP(providers: providers, value: answers?[0].value)]
        }

        func take(_ answers: [CallbackAnswer], into context: inout NodeContext, round: inout PageRound) {
            if let chosen = choice(answers), chosen != Self.local { context.shared[Self.selectedKey] = .string(chosen) }
        }

        func review(_ answers: [CallbackAnswer], context: NodeContext) -> PageChildReview {
            PageChildReview(showAgain: choice(answers) == nil)
        }

        func outcome(_ answers: [CallbackAnswer], context: inout NodeContext) -> NodeAction {
            guard let chosen = choice(answers) else { return .outcome(Self.local) }
            if chosen != Self.local, context.shared[Self.selectedKey] == nil {
                context.shared[Self.selectedKey] = .string(chosen)
            }
            return .outcome(chosen == Self.local ? "localAuthentication" : "socialAuthentication")
        }

        /// Whether it goes on to a social provider: the one the user picked, or the only option
        /// when it sends no callback. A page that ends with this node then skips its other
        /// children (`AM.PageNode`).
        func picksSocialProvider(_ answers: [CallbackAnswer]) -> Bool {
            guard callbackCount == 0 || !answers.isEmpty, let chosen = choice(answers) else { return false }
            return chosen != Self.local
        }

        /// The option taken: the only one when nothing was sent, the answer's, or local when the
        /// answer is empty and local is offered; nil for a name not offered.
        private func choice(_ answers: [CallbackAnswer]) -> String? {
            guard callbackCount == 1 else { return social.first?.name ?? Self.local }
            let typed = JourneyValues.text(answers.first?.value)
            if typed.isEmpty || typed == Self.local { return local ? Self.local : nil }
            return social.contains { $0.name == typed } ? typed : nil
        }
    }
}
