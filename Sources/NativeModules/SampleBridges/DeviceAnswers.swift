import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// Under `--callbacks complete`, the steps an app with the native SDK's authenticator answers
/// by itself with the user's phone (each kind in `DeviceAnswers+<Kind>.swift`). The phone is
/// the user's emulated one (`Phones`); the user is the one the step names, or the one the
/// native side last submitted a username for in a journey.
public final class DeviceAnswers {
    let phones: Phones
    let clock: Clock
    /// What a new passkey's key is drawn from.
    let random: RandomSource
    /// The relying party id a WebAuthn step that names none is for: the server's host.
    let serverHost: String
    /// The username the native side last submitted (a Name or ValidatedCreateUsername callback
    /// that is not a code).
    private(set) var username: String?

    public init(phones: Phones, clock: Clock, random: RandomSource, serverHost: String) {
        self.phones = phones
        self.clock = clock
        self.random = random
        self.serverHost = serverHost
    }

    /// Called once JS's values are on the node, before it is submitted.
    func answer(_ node: inout Node) {
        noteUsername(node)
        answerOath(&node)
        answerWebAuthn(&node)
    }

    private func noteUsername(_ node: Node) {
        for index in node.callbacks.indices {
            guard let type = node.callbackType(at: index), type == .name || type == .validatedCreateUsername,
                !Self.codePrompts.contains(Self.output(node, index, "prompt")?.stringValue ?? ""),
                let value = node.callbacks[index]["input"]?.arrayValue?.first?["value"]?.stringValue, !value.isEmpty
            else { continue }
            username = value
        }
    }

    /// Name callbacks that ask for a code, not a user: AM's OATH verifier and recovery-code prompts.
    static let codePrompts: Set<String> = ["Enter verification code", "Recovery Code"]

    static func output(_ node: Node, _ index: Int, _ name: String) -> JSONValue? {
        node.callbacks[index]["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
    }

    static func inputValue(_ node: Node, _ index: Int) -> JSONValue? {
        node.callbacks[index]["input"]?.arrayValue?.first?["value"]
    }
}
