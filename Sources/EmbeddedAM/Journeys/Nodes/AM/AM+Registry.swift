extension AM {
    /// The node types of the platform journeys (Login, Registration, ForgottenUsername,
    /// ResetPassword, UpdatePassword, ProgressiveProfile).
    static let platformTypes: [AMNodeType] = [
        ValidatedUsernameNode.type, ValidatedPasswordNode.type, UsernameCollectorNode.type, PasswordCollectorNode.type,
        AttributeCollectorNode.type, KbaCreateNode.type, AcceptTermsAndConditionsNode.type, DataStoreDecisionNode.type,
        IdentityStoreDecisionNode.type, RetryLimitDecisionNode.type, AccountLockoutNode.type, IncrementLoginCountNode.type,
        LoginCountDecisionNode.type, AttributePresentDecisionNode.type, AttributeValueDecisionNode.type, QueryFilterDecisionNode.type,
        SessionDataNode.type, IdentifyExistingUserNode.type, CreateObjectNode.type, PatchObjectNode.type, EmailSuspendNode.type,
    ]

    /// The other node types real trees use.
    static let moreTypes: [AMNodeType] = [
        MessageNode.type, ChoiceCollectorNode.type, PollingWaitNode.type, DeviceProfileCollectorNode.type,
        OneTimePasswordGeneratorNode.type, OneTimePasswordSenderNode.smtpType, OneTimePasswordSenderNode.smsType,
        OneTimePasswordCollectorDecisionNode.type, SetSuccessUrlNode.type, ZeroPageLoginNode.type, KbaVerifyNode.type, EmailTemplateNode.type,
        SetPersistentCookieNode.type, PersistentCookieDecisionNode.type, SelectIdPNode.type, WebAuthnNode.registrationType,
        WebAuthnNode.authenticationType,
    ]
}
