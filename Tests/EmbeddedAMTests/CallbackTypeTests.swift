import AuthBridgeCore
import IdentityServer
import Testing

@testable import EmbeddedAM

/// AM's callback types as one vocabulary: each name reads back as its case, and the embedded
/// server writes no type outside it.
@Suite struct CallbackTypes {
    @Test func everyRawValueRoundTrips() {
        for type in CallbackType.allCases {
            #expect(CallbackType(rawValue: type.rawValue) == type)
            #expect(type.rawValue.hasSuffix("Callback"))
        }
        #expect(Set(CallbackType.allCases.map(\.rawValue)).count == CallbackType.allCases.count)
        #expect(CallbackType(rawValue: "WebAuthnRegistrationCallback") == nil)
        #expect(CallbackType(rawValue: "namecallback") == nil)
    }

    /// Every built-in journey, walked for a few steps answering the demo user's name and password
    /// and a device profile (other inputs keep what the step rendered): every callback it sends
    /// has a known type. (`Callback.type` is a `CallbackType`, so this holds by construction; the
    /// walk checks the wire.)
    @Test func theEmbeddedServerRendersOnlyKnownTypes() {
        var seen: Set<CallbackType> = []
        for journey in Harness().am.journeyNames {
            let harness = Harness()
            var reply = harness.start(journey)
            for _ in 0..<6 {
                guard reply.status == 200, let callbacks = reply.body["callbacks"]?.arrayValue else { break }
                var answers: [String: JSONValue] = [:]
                for (index, callback) in callbacks.enumerated() {
                    let name = callback["type"]?.stringValue ?? "(none)"
                    guard let type = CallbackType(rawValue: name) else {
                        Issue.record("\(journey) renders \(name)")
                        continue
                    }
                    seen.insert(type)
                    switch type {
                    case .name, .validatedCreateUsername: answers["IDToken\(index + 1)"] = "demo"
                    case .password, .validatedCreatePassword: answers["IDToken\(index + 1)"] = "Ch4ng3it!"
                    case .deviceProfile: answers["IDToken\(index + 1)"] = #"{"identifier":"test"}"#
                    default: break
                    }
                }
                reply = harness.submit(reply.body, answers)
            }
        }
        #expect(seen.isSuperset(of: [.name, .password, .choice, .confirmation, .textOutput, .kbaCreate]))
    }

    /// A journey file names AM's callback types as AM spells them; the WebAuthn entries are the
    /// iOS SDK's names for the MetadataCallback + HiddenValueCallback pair AM sends.
    @Test func journeyFilesNameAMTypes() {
        let unknown = CallbackFormat.formats.map(\.type).filter { CallbackType(rawValue: $0) == nil }
        #expect(unknown == ["WebAuthnRegistrationCallback", "WebAuthnAuthenticationCallback"])
    }
}
