import AuthBridgeCore
import EmulatedDevice
import IdentityServer
import NativeSDK

/// The native side's hands on the emulated phone: what an app with the native SDK's
/// authenticator modules does with the device callbacks it meets under `--callbacks complete`,
/// and what `emulator.*` does at a test's request. The phone reaches the server only the way a
/// real one does (`server`, the same `IdentityServer` the SDK talks to). Each kind of device
/// answers in a file of its own (`DeviceAnswers+<Kind>.swift`).
public final class DeviceAnswers {
    let phones: Phones
    let server: any IdentityServer
    let clock: Clock
    let random: RandomSource
    /// The username the app last submitted in a Name or username callback: whose phone it is.
    private(set) var username: String?
    /// Registration messages whose URI the app has scanned (`DeviceAnswers+Push.swift`).
    var scannedMessages: Set<String> = []

    public init(phones: Phones, server: any IdentityServer, clock: Clock, random: RandomSource) {
        self.phones = phones
        self.server = server
        self.clock = clock
        self.random = random
    }

    /// Why a phone could not do what it was asked; nothing was stored.
    public struct Failure: Error, Equatable, Sendable {
        /// The argument a test gave that is at fault (`uri`, `phone`, `number`, `messageId`).
        public let param: String
        public let reason: String
    }

    /// `--callbacks complete`: after JS's values are on the node, the app's device modules act on
    /// the callbacks that need the phone.
    func answer(_ node: inout Node) {
        for index in node.callbacks.indices {
            let type = node.callbackType(at: index)
            if type == .name || type == .validatedCreateUsername,
                case .string(let name)? = node.callbacks[index]["input"]?.arrayValue?.first?["value"], !name.isEmpty
            {
                username = name
            }
        }
        answerPush(&node)
    }
}
