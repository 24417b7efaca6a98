/// AM's callback types: the `type` of each entry of a step's `callbacks` array, spelled as AM
/// writes it. The list is what AM's nodes send and the SDKs register: the JavaScript SDK's
/// `CallbackType` (`ForgeRock/forgerock-javascript-sdk`
/// `packages/javascript-sdk/src/auth/enums.ts`), the iOS SDK's `CallbackFactory`
/// (`ForgeRock/forgerock-ios-sdk` `FRAuth/FRAuth/Callbacks/CallbackFactory.swift`, with the
/// types its optional modules register), and the `ConsentMappingCallback` of the Identity
/// Platform's Consent Collector node, which the Ping SDKs register.
///
/// A step from a real tenant or a journey export may carry a type not listed here: where a type is
/// data (a payload, AM's JSON as received) it stays a `String`, and code that decides by type
/// converts with `CallbackType(rawValue:)`, treating nil as "a type AuthBridge does not know".
public enum CallbackType: String, CaseIterable, Equatable, Hashable, Sendable {
    case appIntegrity = "AppIntegrityCallback"
    case booleanAttributeInput = "BooleanAttributeInputCallback"
    case choice = "ChoiceCallback"
    case confirmation = "ConfirmationCallback"
    case consentMapping = "ConsentMappingCallback"
    case deviceBinding = "DeviceBindingCallback"
    case deviceProfile = "DeviceProfileCallback"
    case deviceSigningVerifier = "DeviceSigningVerifierCallback"
    /// Not on AM's wire: the SDKs' name for a WebAuthn MetadataCallback that authenticates.
    case fidoAuthentication = "FidoAuthenticationCallback"
    /// Not on AM's wire: the SDKs' name for a WebAuthn MetadataCallback that registers.
    case fidoRegistration = "FidoRegistrationCallback"
    case hiddenValue = "HiddenValueCallback"
    case idP = "IdPCallback"
    case kbaCreate = "KbaCreateCallback"
    case metadata = "MetadataCallback"
    case name = "NameCallback"
    case numberAttributeInput = "NumberAttributeInputCallback"
    case password = "PasswordCallback"
    case pingOneProtectEvaluation = "PingOneProtectEvaluationCallback"
    case pingOneProtectInitialize = "PingOneProtectInitializeCallback"
    case pollingWait = "PollingWaitCallback"
    case reCaptcha = "ReCaptchaCallback"
    case reCaptchaEnterprise = "ReCaptchaEnterpriseCallback"
    case redirect = "RedirectCallback"
    case selectIdP = "SelectIdPCallback"
    case stringAttributeInput = "StringAttributeInputCallback"
    case suspendedTextOutput = "SuspendedTextOutputCallback"
    case termsAndConditions = "TermsAndConditionsCallback"
    case textInput = "TextInputCallback"
    case textOutput = "TextOutputCallback"
    case validatedCreatePassword = "ValidatedCreatePasswordCallback"
    case validatedCreateUsername = "ValidatedCreateUsernameCallback"
}
