import AuthBridgeCore
import NativeSDK

/// How each platform's module rejects a handler's failure (`mapIdpError` on iOS,
/// `discriminateIdpError` with `rejectWithError` on Android):
///
/// - iOS maps `IdpExceptions` by case, all `auth_error` but `illegalArgumentException`, with the
///   error's `localizedDescription`: `IdpExceptions` declares `errorMessage`, not
///   `errorDescription`, so that is Foundation's generic text naming the case's number
///   (`unsupportedIdpException` 0, `illegalStateException` 2; inferred from Swift's error bridging).
/// - Android: an unknown provider is the callback's `IllegalArgumentException("Unsupported
///   provider: …")` → `EXTERNAL_IDP_CONFIG_ERROR`; other failures are `EXTERNAL_IDP_AUTHORIZE_ERROR`;
///   the type comes from `mapThrowableToGenericError` (`IllegalArgumentException` → argument_error,
///   anything else → internal_error).
///
/// A flow AuthBridge does not emulate rejects `EXTERNAL_IDP_AUTHORIZE_ERROR` with a message saying so.
/// The IdpExceptions cases are numbered in declaration order: unsupported 0, illegalArgument 1,
/// illegalState 2, canceled 3.
struct ExternalIdpDialect: Sendable {
    let platform: Platform

    private typealias Module = RNPingExternalIdpModule

    func rejection(_ failure: DeviceAnswers.IdPFailure) -> BridgeError {
        switch (failure, platform) {
        case (.unsupportedProvider, .ios): Module.reject(.unsupportedProvider, .auth, Self.foundationText(0))
        case (.unsupportedProvider(let name), .android):
            Module.reject(.config, .argument, "Unsupported provider: \(name)")
        case (.providerRefused, .ios): Module.reject(.authorize, .auth, Self.foundationText(2))
        case (.providerRefused(let message), .android): Module.reject(.authorize, .internalError, message)
        case (.notEmulated(let message), _):
            Module.reject(.authorize, platform == .ios ? .auth : .internalError, message)
        }
    }

    /// Why a DaVinci IdP collector's handler failed before or after the provider's SDK.
    enum DaVinciFailure: Equatable {
        /// The link's fetch answered no JSON object (the answer's body).
        case fetchFailed(String)
        /// No URL to resume at: the fetched `_links.next` (iOS native) or the form's
        /// `_links.continue` (Android browser).
        case noContinueUrl
        /// The browser never came back with a `continueToken`.
        case browserCancelled
    }

    /// iOS: a failed fetch is the handler's `unsupportedIdpException`, a missing `next` its
    /// `illegalStateException`, and whatever the browser fallback throws becomes
    /// `idpCanceledException` (`IdpCollector.fallbackToBrowserHandler`). Android: the fetch's
    /// `ApiException` (its body) and the browser handler's `IllegalStateException` are authorize
    /// errors; a browser that does not come back is taken as `IdpCanceledException`.
    func rejection(_ failure: DaVinciFailure) -> BridgeError {
        switch (failure, platform) {
        case (.fetchFailed, .ios): Module.reject(.unsupportedProvider, .auth, Self.foundationText(0))
        case (.fetchFailed(let body), .android): Module.reject(.authorize, .internalError, body)
        case (.noContinueUrl, .ios): Module.reject(.authorize, .auth, Self.foundationText(2))
        case (.noContinueUrl, .android): Module.reject(.authorize, .internalError, "Continue URL not found")
        case (.browserCancelled, .ios): Module.reject(.cancelled, .auth, Self.foundationText(3))
        case (.browserCancelled, .android):
            Module.reject(.cancelled, .internalError, "Identity Provider authentication was canceled")
        }
    }

    /// A flow at a form without an IdP collector at `index` (both platforms).
    static func noCollector(_ id: String, index: Int) -> String {
        "No active IdP collector found for DaVinci \(id) at index \(index)."
    }

    /// `authorizeForDaVinci`'s message for an id the core runtime does not know or a flow at no
    /// form: iOS `resolveDaVinciCollectors` → nil, Android `resolveDaVinciIdpCollector` → null.
    func noDaVinci(_ id: String, index: Int) -> String {
        switch platform {
        case .ios: "No active DaVinci collectors found for id \(id)."
        case .android: "No active IdP collector found for DaVinci \(id) at index \(index)."
        }
    }

    private static func foundationText(_ code: Int) -> String {
        "The operation couldn’t be completed. (PingExternalIdP.IdpExceptions error \(code).)"
    }
}
