import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// The native side's hands on the emulated phone: what an app with the native SDK's
/// authenticator and device modules does with the device callbacks it meets under
/// `--callbacks complete`, and what `emulator.*` does at a test's request. The phone reaches the
/// server only the way a real one does (`server`, the same `IdentityServer` the SDK talks to).
/// Each kind of device answers in a file of its own (`DeviceAnswers+<Kind>.swift`). The user
/// is the one the step names, or the one the native side last submitted a username for.
public final class DeviceAnswers {
    let phones: Phones
    let server: any IdentityServer
    let clock: Clock
    /// What a key made now draws on (a device-binding key, a new passkey).
    let random: RandomSource
    /// The relying party id a WebAuthn step that names none is for: the server's host.
    let serverHost: String
    /// The username the native side last submitted (a Name or ValidatedCreateUsername callback
    /// that is not a code).
    private(set) var username: String?
    /// Registration messages whose URI the app has scanned (`DeviceAnswers+Push.swift`).
    var scannedMessages: Set<String> = []
    /// The identity providers the app's provider SDKs sign in with (`DeviceAnswers+IdP.swift`):
    /// the embedded server's emulated ones; nil with a remote server.
    public var socialSignIn: (any SocialSignIn)?

    public init(phones: Phones, server: any IdentityServer, clock: Clock, random: RandomSource, serverHost: String) {
        self.phones = phones
        self.server = server
        self.clock = clock
        self.random = random
        self.serverHost = serverHost
    }

    /// Why a phone could not do what it was asked; nothing was stored.
    public struct Failure: Error, Equatable, Sendable {
        /// The argument a test gave that is at fault (`uri`, `phone`, `number`, `messageId`).
        public let param: String
        public let reason: String
        /// The server's answer when it refused a request the phone made (the push endpoint's).
        public var refusal: ServerRefusal? = nil

        public struct ServerRefusal: Equatable, Sendable {
            public let status: Int
            public let body: String
        }
    }

    /// Told of each push notification a phone took in (`DeviceAnswers+Push.swift` `deliver`): the
    /// phone's id, the notification and the JWT it came as. The app's push module listens here.
    public var onPushReceived: ((_ phone: String, _ notification: PushNotification, _ jwt: String) -> Void)?

    /// `--callbacks complete`: called once JS's values are on the node, before it is submitted.
    func answer(_ node: inout Node) {
        noteUsername(node)
        answerOath(&node)
        answerPush(&node)
        answerWebAuthn(&node)
        for index in node.callbacks.indices { answerBinding(&node, at: index) }
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
