import AuthBridgeCore
import IdentityServer
import Testing

@testable import NativeSDK

/// A step from a real tenant may carry a callback type AuthBridge does not know: the SDK decides
/// on the types it knows and keeps the rest as AM sent them.
@Suite struct UnknownCallbackTypes {
    static let step: JSONValue = [
        "authId": "a",
        "callbacks": [
            [
                "type": "NameCallback", "output": [["name": "prompt", "value": "User Name"]],
                "input": [["name": "IDToken1", "value": ""]],
            ],
            ["type": "FutureCallback", "output": [], "input": [["name": "IDToken2", "value": "kept"]]],
        ],
    ]

    @Test func theLegacySDKKeepsAnUnknownCallbackAndSubmitsItUnchanged() throws {
        let node = try #require(Node(step: Self.step, authServiceId: "s"))
        #expect(node.callbackType(at: 0) == .name)
        #expect(node.callbackType(at: 1) == nil)
        #expect(node.requestPayload["callbacks"]?.arrayValue?[1] == Self.step["callbacks"]?.arrayValue?[1])
    }

    @Test func thePingSDKRegistersOnlyItsCoreTypes() throws {
        let node = try #require(PingContinueNode(step: Self.step, platform: .android))
        #expect(node.callbacks.map(\.type) == [.name])
        #expect(node.callbacks.map(\.amIndex) == [0])
    }
}
