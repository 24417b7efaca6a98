import AuthBridgeCore

/// The flows every environment has (docs/davinci.md, "Built-in flows"), written in the flow
/// format a `--davinci-flows` file uses: sign-on (with registration and password recovery
/// behind its flow buttons), registration, password reset, and sign-on with MFA (an e-mail or
/// SMS one-time code to a device the user picks, or the code of an authenticator app the user
/// registers there).
enum BuiltInFlows {
    static var all: [DaVinciFlow] {
        [
            flow(name: "sign-on", start: "signOn", nodes: signOn + registration + recovery),
            flow(name: "registration", start: "register", nodes: registration + signOn + recovery),
            flow(name: "password-reset", start: "forgotPassword", nodes: recovery + [success]),
            flow(name: "sign-on-mfa", start: "signOn", nodes: signOnMFA),
        ]
    }

    private static func flow(name: String, start: String, nodes: [String]) -> DaVinciFlow {
        let text = #"{"name": "\#(name)", "start": "\#(start)", "nodes": [\#(nodes.joined(separator: ","))]}"#
        do {
            return try DaVinciFlow.parse(JSONReader(try JSONParser.parse(text)))
        } catch {
            preconditionFailure("built-in flow \(name): \(error)")
        }
    }

    private static let success = #"""
        {"id": "success", "connector": "pingOneAuthenticationConnector", "capability": "returnSuccessResponseRedirect"}
        """#

    private static let signOn = [
        #"""
        {"id": "signOn", "form": {"name": "Username/Password Form", "fields": [
            {"type": "TEXT", "key": "username", "label": "Username", "required": true},
            {"type": "PASSWORD", "key": "password", "label": "Password", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "SIGNON", "label": "Sign On"},
            {"type": "FLOW_BUTTON", "key": "TROUBLE", "label": "Having trouble signing on?"},
            {"type": "FLOW_BUTTON", "key": "REGISTER", "label": "No account? Register now!"}]},
         "next": {"SIGNON": "checkPassword", "TROUBLE": "forgotPassword", "REGISTER": "register"}}
        """#,
        #"""
        {"id": "checkPassword", "connector": "pingOneSSOConnector", "capability": "checkPassword",
         "next": {"success": "success"}}
        """#,
        success,
    ]

    private static let registration = [
        #"""
        {"id": "register", "form": {"name": "Registration Form", "fields": [
            {"type": "TEXT", "key": "username", "label": "Username", "required": true},
            {"type": "TEXT", "key": "email", "label": "Email Address", "required": true},
            {"type": "TEXT", "key": "givenName", "label": "Given Name"},
            {"type": "TEXT", "key": "familyName", "label": "Family Name"},
            {"type": "PASSWORD_VERIFY", "key": "password", "label": "Password", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "REGISTER", "label": "Save"},
            {"type": "FLOW_BUTTON", "key": "SIGNON", "label": "Already have an account? Sign on"}]},
         "next": {"REGISTER": "createUser", "SIGNON": "signOn"}}
        """#,
        #"""
        {"id": "createUser", "connector": "pingOneSSOConnector", "capability": "createUser",
         "next": {"success": "success"}}
        """#,
    ]

    private static let recovery = [
        #"""
        {"id": "forgotPassword", "form": {"name": "Forgot Password", "fields": [
            {"type": "LABEL", "content": "Enter your username to receive a recovery code by e-mail."},
            {"type": "TEXT", "key": "username", "label": "Username", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "SEND", "label": "Send Code"}]},
         "next": {"SEND": "findUser"}}
        """#,
        #"""
        {"id": "findUser", "connector": "pingOneSSOConnector", "capability": "findUser",
         "next": {"found": "sendRecoveryCode", "notFound": "unknownUser"}}
        """#,
        #"""
        {"id": "unknownUser", "connector": "pingOneAuthenticationConnector", "capability": "returnErrorResponse",
         "settings": {"code": "userNotFound", "message": "No user with that username"}}
        """#,
        #"""
        {"id": "sendRecoveryCode", "connector": "pingOneMfaConnector", "capability": "sendOneTimeCode",
         "settings": {"delivery": "email"}, "next": {"sent": "resetPassword"}}
        """#,
        #"""
        {"id": "resetPassword", "form": {"name": "Reset Password", "fields": [
            {"type": "TEXT", "key": "otp", "label": "Recovery Code", "required": true},
            {"type": "PASSWORD_VERIFY", "key": "password", "label": "New Password", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "RESET", "label": "Save"}]},
         "next": {"RESET": "checkRecoveryCode"}}
        """#,
        #"""
        {"id": "checkRecoveryCode", "connector": "pingOneMfaConnector", "capability": "checkOneTimeCode",
         "next": {"valid": "setPassword", "failed": "codeSpent"}}
        """#,
        #"""
        {"id": "codeSpent", "connector": "pingOneAuthenticationConnector", "capability": "returnErrorResponse",
         "settings": {"code": "otpAttemptsExceeded", "message": "Too many wrong codes"}}
        """#,
        #"""
        {"id": "setPassword", "connector": "pingOneSSOConnector", "capability": "resetPassword",
         "next": {"success": "success"}}
        """#,
    ]

    private static let signOnMFA = [
        #"""
        {"id": "signOn", "form": {"name": "Username/Password Form", "fields": [
            {"type": "TEXT", "key": "username", "label": "Username", "required": true},
            {"type": "PASSWORD", "key": "password", "label": "Password", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "SIGNON", "label": "Sign On"}]},
         "next": {"SIGNON": "checkPassword"}}
        """#,
        #"""
        {"id": "checkPassword", "connector": "pingOneSSOConnector", "capability": "checkPassword",
         "next": {"success": "chooseDevice"}}
        """#,
        #"""
        {"id": "chooseDevice", "form": {"name": "Select MFA Device", "fields": [
            {"type": "DEVICE_AUTHENTICATION", "key": "device", "label": "Select an MFA device", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "NEXT", "label": "Next"},
            {"type": "FLOW_BUTTON", "key": "ADD_DEVICE", "label": "Add a device"}]},
         "next": {"NEXT": "sendCode", "ADD_DEVICE": "registerDevice"}}
        """#,
        #"""
        {"id": "registerDevice", "form": {"name": "Register MFA Device", "fields": [
            {"type": "DEVICE_REGISTRATION", "key": "newDevice", "label": "Select a device type", "required": true,
             "options": [
                {"type": "EMAIL", "title": "Email", "description": "Receive a passcode by e-mail",
                 "iconSrc": "https://assets.pingone.com/ux/end-user/icons/email.svg"},
                {"type": "SMS", "title": "Text Message", "description": "Receive a passcode by text message",
                 "iconSrc": "https://assets.pingone.com/ux/end-user/icons/sms.svg"},
                {"type": "TOTP", "title": "Authenticator App", "description": "Use an authenticator app's passcode",
                 "iconSrc": "https://assets.pingone.com/ux/end-user/icons/totp.svg"}]},
            {"type": "SUBMIT_BUTTON", "key": "NEXT", "label": "Next"}]},
         "next": {"NEXT": "createDevice"}}
        """#,
        #"""
        {"id": "createDevice", "connector": "pingOneMfaConnector", "capability": "createDevice",
         "settings": {"device": "newDevice"}, "next": {"active": "chooseDevice", "activationRequired": "pairDevice"}}
        """#,
        #"""
        {"id": "pairDevice", "form": {"name": "Pair Authenticator App", "fields": [
            {"type": "LABEL", "content": "Scan the QR code with your authenticator app, then enter the passcode it shows."},
            {"type": "QR_CODE", "key": "qrCode"},
            {"type": "TEXT", "key": "otp", "label": "Passcode", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "VERIFY", "label": "Verify"}]},
         "next": {"VERIFY": "activateDevice"}}
        """#,
        #"""
        {"id": "activateDevice", "connector": "pingOneMfaConnector", "capability": "activateDevice",
         "next": {"activated": "success", "failed": "codeSpent"}}
        """#,
        #"""
        {"id": "sendCode", "connector": "pingOneMfaConnector", "capability": "sendOneTimeCode",
         "settings": {"device": "device"}, "next": {"sent": "enterCode"}}
        """#,
        #"""
        {"id": "enterCode", "form": {"name": "Enter Passcode", "fields": [
            {"type": "LABEL", "content": "Enter the one-time passcode we sent you."},
            {"type": "TEXT", "key": "otp", "label": "Passcode", "required": true},
            {"type": "SUBMIT_BUTTON", "key": "VERIFY", "label": "Verify"}]},
         "next": {"VERIFY": "checkCode"}}
        """#,
        #"""
        {"id": "checkCode", "connector": "pingOneMfaConnector", "capability": "checkOneTimeCode",
         "next": {"valid": "success", "failed": "codeSpent"}}
        """#,
        #"""
        {"id": "codeSpent", "connector": "pingOneAuthenticationConnector", "capability": "returnErrorResponse",
         "settings": {"code": "otpAttemptsExceeded", "message": "Too many wrong codes"}}
        """#,
        success,
    ]
}
