/// The journeys every daemon starts with (docs/journeys.md, J1–J10; J11 is the `timeout` every
/// journey has). They are written in the JSON users load with `--journeys` (docs/journeys.md),
/// so the built-ins exercise the loader too.
enum BuiltInJourneys {
    private static let credentials = #"""
            "credentials": {
              "type": "page", "stage": "UsernamePassword", "header": "Sign In",
              "callbacks": [ { "type": "NameCallback", "prompt": "User Name" }, { "type": "PasswordCallback", "prompt": "Password" } ],
              "outcomes": { "next": "dataStore" }
            },
        """#
    private static let ends = #"""
            "success": { "type": "success" },
            "failure": { "type": "failure" }
        """#

    static let login = #"""
        { "name": "Login", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "success", "false": "failure" } },
        \#(ends)
        } }
        """#

    static let registration = #"""
        { "name": "Registration", "entry": "signUp", "nodes": {
            "signUp": {
              "type": "page", "header": "Sign Up",
              "description": "Signing up is fast and easy.<br>Already have an account? <a href='#/service/Login'>Sign In</a>",
              "callbacks": [
                { "type": "ValidatedCreateUsernameCallback", "prompt": "Username",
                  "policies": [ { "policyId": "required" }, { "policyId": "valid-username" },
                                { "policyId": "cannot-contain-characters", "params": { "forbiddenChars": [ "/" ] } } ] },
                { "type": "StringAttributeInputCallback", "attribute": "givenName", "prompt": "First Name",
                  "policies": [ { "policyId": "required" } ] },
                { "type": "StringAttributeInputCallback", "attribute": "sn", "prompt": "Last Name",
                  "policies": [ { "policyId": "required" } ] },
                { "type": "StringAttributeInputCallback", "attribute": "mail", "prompt": "Email Address",
                  "policies": [ { "policyId": "required" }, { "policyId": "valid-email-address-format" } ] },
                { "type": "BooleanAttributeInputCallback", "attribute": "preferences/marketing",
                  "prompt": "Send me special offers and services", "required": false },
                { "type": "BooleanAttributeInputCallback", "attribute": "preferences/updates",
                  "prompt": "Send me news and updates", "required": false },
                { "type": "ValidatedCreatePasswordCallback", "prompt": "Password",
                  "policies": [
                    { "policyId": "required" },
                    { "policyId": "minimum-length", "params": { "minLength": 8 } },
                    { "policyId": "at-least-X-capitals", "params": { "numCaps": 1 } },
                    { "policyId": "at-least-X-numbers", "params": { "numNums": 1 } },
                    { "policyId": "cannot-contain-others", "params": { "disallowedFields": [ "userName", "givenName", "sn" ] } }
                  ] },
                { "type": "KbaCreateCallback", "prompt": "Select a security question",
                  "predefinedQuestions": [ "What's your favorite color?", "Who was your first employer?" ] },
                { "type": "KbaCreateCallback", "prompt": "Select a security question",
                  "predefinedQuestions": [ "What's your favorite color?", "Who was your first employer?" ] },
                { "type": "TermsAndConditionsCallback", "version": "0.0",
                  "terms": "Lorem ipsum dolor sit amet, consectetur adipiscing elit.", "createDate": "2019-10-28T04:20:11.320Z" }
              ],
              "outcomes": { "next": "termsAccepted" }
            },
            "termsAccepted": { "type": "valueDecision", "sharedState": "termsAccepted", "equals": true,
                               "outcomes": { "true": "create", "false": "signUp" } },
            "create": { "type": "createObject", "outcomes": { "created": "success", "failed": "failure" } },
        \#(ends)
        } }
        """#

    static let platformLogin = #"""
        { "name": "PlatformLogin", "entry": "credentials", "nodes": {
            "credentials": {
              "type": "page", "stage": "UsernamePassword",
              "callbacks": [
                { "type": "ValidatedCreateUsernameCallback", "prompt": "Username", "policies": [ { "policyId": "required" } ] },
                { "type": "ValidatedCreatePasswordCallback", "prompt": "Password", "policies": [ { "policyId": "required" } ] }
              ],
              "outcomes": { "next": "dataStore" }
            },
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "success", "false": "failure" } },
        \#(ends)
        } }
        """#

    static let miscCallbacks = #"""
        { "name": "MiscCallbacks", "entry": "name", "nodes": {
            "name": { "type": "page", "callbacks": [ { "type": "NameCallback", "prompt": "User Name" } ], "outcomes": { "next": "nickname" } },
            "nickname": { "type": "page", "callbacks": [
                { "type": "TextInputCallback", "prompt": "Provide a nickname for this account", "sharedState": "nickname" } ],
              "outcomes": { "next": "hasNickname" } },
            "hasNickname": { "type": "valueDecision", "sharedState": "nickname", "outcomes": { "true": "password", "false": "failure" } },
            "password": { "type": "page", "callbacks": [ { "type": "PasswordCallback", "prompt": "Password" } ], "outcomes": { "next": "dataStore" } },
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "color", "false": "failure" } },
            "color": { "type": "page", "callbacks": [
                { "type": "ChoiceCallback", "prompt": "Choose your color", "choices": [ "red", "green", "blue" ], "defaultChoice": 0,
                  "sharedState": "color" } ],
              "outcomes": { "next": "isGreen" } },
            "isGreen": { "type": "valueDecision", "sharedState": "color", "equals": 1, "outcomes": { "true": "confirm", "false": "failure" } },
            "confirm": { "type": "page", "callbacks": [
                { "type": "TextOutputCallback", "message": "Is it true?", "messageType": "0" },
                { "type": "ConfirmationCallback", "prompt": "", "messageType": 0, "options": [ "Yes", "No" ], "optionType": -1,
                  "defaultOption": 1, "sharedState": "confirmed" } ],
              "outcomes": { "next": "isYes" } },
            "isYes": { "type": "valueDecision", "sharedState": "confirmed", "equals": 0, "outcomes": { "true": "wait", "false": "failure" } },
            "wait": { "type": "pollingWait", "seconds": 1, "message": "Waiting for response...", "outcomes": { "done": "success" } },
        \#(ends)
        } }
        """#

    static let pollingWait = #"""
        { "name": "PollingWait", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "wait", "false": "failure" } },
            "wait": { "type": "pollingWait", "seconds": 5, "message": "Please Wait", "exitable": true, "exitMessage": "Exit",
                      "outcomes": { "done": "success", "exit": "failure" } },
        \#(ends)
        } }
        """#

    static let deviceProfile = #"""
        { "name": "DeviceProfile", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "profile", "false": "failure" } },
            "profile": { "type": "deviceProfile", "metadata": true, "location": true, "message": "Collecting profile ...",
                         "outcomes": { "collected": "success", "invalid": "failure" } },
        \#(ends)
        } }
        """#

    static let secondFactor = #"""
        { "name": "SecondFactor", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "factor", "false": "failure" } },
            "factor": { "type": "choiceCollector", "prompt": "Choose Second Factor", "choices": [ "Email", "SMS" ], "defaultChoice": 0,
                        "stage": "SecondFactorChoice",
                        "outcomes": { "Email": "sendEmail", "SMS": "sendSMS" } },
            "sendEmail": { "type": "otpGenerate", "delivery": "email", "outcomes": { "next": "verifyEmail" } },
            "sendSMS": { "type": "otpGenerate", "delivery": "sms", "outcomes": { "next": "verifySMS" } },
            "verifyEmail": { "type": "otpVerify", "stage": "OneTimePasswordEmail", "outcomes": { "true": "success", "false": "failure" } },
            "verifySMS": { "type": "otpVerify", "stage": "OneTimePasswordSMS", "outcomes": { "true": "success", "false": "failure" } },
        \#(ends)
        } }
        """#

    static let otpRegistration = #"""
        { "name": "OTPRegistration", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "qrCode", "false": "failure" } },
            "qrCode": { "type": "page", "callbacks": [
                { "type": "TextOutputCallback", "messageType": "0",
                  "message": "Scan the QR code image below with the ForgeRock Authenticator app to register your device with your login." },
                { "type": "TextOutputCallback", "messageType": "4",
                  "message": "window.QRCodeReader.createCode({id: 'callback_0', text: 'otpauth\\x3A\\x2F\\x2Ftotp\\x2FForgeRock\\x3Ademo\\x3Fsecret\\x3DJMEZ2W7D462P3JYBDG2HV7PFBM\\x26issuer\\x3DForgeRock\\x26period\\x3D30\\x26digits\\x3D6\\x26b\\x3D032b75', version: 20, code: 'L'});" },
                { "type": "HiddenValueCallback", "id": "mfaDeviceRegistration",
                  "value": "otpauth://totp/ForgeRock:demo?secret=JMEZ2W7D462P3JYBDG2HV7PFBM&issuer=ForgeRock&period=30&digits=6&b=032b75" },
                { "type": "ConfirmationCallback", "prompt": "", "messageType": 0, "options": [ "Next" ], "optionType": -1, "defaultOption": 0 } ],
              "outcomes": { "next": "success" } },
        \#(ends)
        } }
        """#

    static let retryLimit = #"""
        { "name": "RetryLimit", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "success", "false": "retry" } },
            "retry": { "type": "retryLimit", "retryLimit": 3, "saveToUser": true, "outcomes": { "retry": "credentials", "reject": "lock" } },
            "lock": { "type": "accountLockout", "lockAction": "LOCK", "outcomes": { "next": "failure" } },
        \#(ends)
        } }
        """#

    static let lockoutMode = #"""
        { "name": "LockoutMode", "entry": "credentials", "nodes": {
        \#(credentials)
            "dataStore": { "type": "dataStoreDecision", "lockoutMode": { "attempts": 3, "warnWhenRemaining": 1, "duration": 300 },
                           "outcomes": { "true": "success", "false": "failure" } },
        \#(ends)
        } }
        """#

    static let emailSuspend = #"""
        { "name": "EmailSuspend", "entry": "username", "nodes": {
            "username": { "type": "page", "callbacks": [ { "type": "ValidatedCreateUsernameCallback", "prompt": "Username",
                                                           "policies": [ { "policyId": "required" } ] } ],
                          "outcomes": { "next": "suspend" } },
            "suspend": { "type": "suspend", "duration": 300, "outcomes": { "next": "success" } },
        \#(ends)
        } }
        """#

    /// By name, so the catalog can list them before parsing any (a test checks each name).
    static let all: [(name: String, text: String)] = [
        ("Login", login), ("Registration", registration), ("PlatformLogin", platformLogin),
        ("MiscCallbacks", miscCallbacks),
        ("PollingWait", pollingWait), ("DeviceProfile", deviceProfile), ("SecondFactor", secondFactor),
        ("OTPRegistration", otpRegistration), ("RetryLimit", retryLimit), ("LockoutMode", lockoutMode),
        ("EmailSuspend", emailSuspend),
    ]
}
