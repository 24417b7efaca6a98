import AuthBridgeCore
import EmulatedDevice

/// What a sample bridge's native side reaches in `--callbacks complete`: the emulated phones, and
/// the daemon's clock and random source (a key made now, a JWS's times), as an app built with the
/// native SDK's device modules reaches the phone it runs on.
public struct PhoneAccess {
    public let phones: Phones
    public let clock: Clock
    public let random: RandomSource

    public init(phones: Phones, clock: Clock, random: RandomSource) {
        self.phones = phones
        self.clock = clock
        self.random = random
    }
}

/// The native side's answers to the callbacks that need a phone, one file per kind
/// (`DeviceAnswers+<Kind>.swift`), each called once from `CallbackValues.applyComplete`.
enum DeviceAnswers {}
