import AuthBridgeCore
import IdentityServer
import NativeSDK
import Testing

/// What the iOS SDK's `localizedDescription` says, which the iOS bridges pass on (issue 15).
@Suite struct IOSErrorTexts {
    @Test func amBodiesBecomeTheIOSSDKsTexts() {
        #expect(SDKError.authenticationFailed(body: AMErrors.sessionTimedOut).iosMessage == "Authentication timed out")
        #expect(
            SDKError.authenticationFailed(body: AMErrors.suspendedIdNotFound).iosMessage
                == " Token not found. It may have expired.")
        #expect(SDKError.authenticationFailed(body: AMErrors.loginFailure).iosMessage == "Login failure")
        #expect(SDKError.authenticationFailed(body: ["message": "no reason"]).iosMessage == "Request failed")
        // Android passes AM's message itself.
        #expect(SDKError.authenticationFailed(body: AMErrors.sessionTimedOut).message == "Session has timed out")
    }

    @Test func sdkStatesAndOAuthErrorsUseTheSDKsOwnTexts() {
        #expect(SDKError.notStarted.iosMessage == "Invalid SDK State: initialize SDK using FRAuth.start() first")
        #expect(
            SDKError.authenticationRequired.iosMessage
                == "All user credentials are expired or invalid; user authentication is required")
        #expect(SDKError.userAlreadyAuthenticated.iosMessage == "User is already authenticated")
        #expect(SDKError.oauth(error: "invalid_grant", description: "").iosMessage == "Invalid grant")
        #expect(
            SDKError.oauth(error: "invalid_grant", description: "grant is invalid").iosMessage == "grant is invalid")
    }
}
