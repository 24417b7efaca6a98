import AuthBridgeCore

/// The native side's last token-sync transitions, for the inspector (docs/inspector.md): each
/// event sent to JS, each change JS made (`tokenUpdate`, `logout()`), and each native change held
/// back because JS was not listening yet, with its reason and the daemon's time. A bounded ring:
/// the oldest go first.
public struct TokenSyncHistory: Sendable {
    public static let capacity = 20

    public struct Transition: Equatable, Sendable {
        public enum Kind: String, Sendable {
            /// An event native sent to JS.
            case sent
            /// A change JS made, never echoed back.
            case fromJS
            /// A native change made before `tokenSyncReady`, folded into the state sent on ready.
            case held
        }

        public var at: Double
        public var kind: Kind
        /// The event's name (`TOKEN_EVENT`, …) or JS's call (`tokenUpdate`, `logout`), or for a
        /// held change, the event it would have been.
        public var name: String
        public var reason: String
        public var generation: Int64?
    }

    public private(set) var transitions: [Transition] = []

    mutating func record(_ transition: Transition) {
        transitions.append(transition)
        if transitions.count > Self.capacity { transitions.removeFirst(transitions.count - Self.capacity) }
    }
}
