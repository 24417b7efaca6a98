import AuthBridgeCore

extension AM {
    /// AM's HOTP Generator: a code of `length` digits and the time it was made, in transient
    /// state (`oneTimePassword`, `oneTimePasswordTimestamp` in seconds, AM's keys), for the OTP
    /// senders and the OTP Collector Decision. It sends nothing itself; a sender does.
    struct OneTimePasswordGeneratorNode: JourneyNode {
        static let type = AMNodeType(name: "OneTimePasswordGeneratorNode", asksForInput: false) { (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            .node(OneTimePasswordGeneratorNode(length: try s.int("length", default: 8, in: 6...32)))
        }

        static let codeKey = "oneTimePassword"
        static let timestampKey = "oneTimePasswordTimestamp"

        var length: Int
        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            context.transient[Self.codeKey] = .string(context.random.string(length: length, alphabet: "0123456789"))
            context.transient[Self.timestampKey] = .double(context.clock.now)
            return .outcome("outcome")
        }
    }
}
