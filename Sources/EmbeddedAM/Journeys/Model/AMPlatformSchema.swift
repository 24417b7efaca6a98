import AuthBridgeCore

/// What IDM's configuration tells AM's platform nodes and a journey export does not carry: the
/// managed user's attribute titles, types and policies, the KBA questions, the active terms.
/// These are the platform defaults (rockcarver/frodo-cli's `test/e2e/exports/` IDM config; forgerock-ios-sdk's `RegistrationNode.json`).
enum AMPlatformSchema {
    static func title(_ attribute: String) -> String {
        switch attribute {
        case "userName": return "Username"
        case "password": return "Password"
        case "givenName": return "First Name"
        case "sn": return "Last Name"
        case "mail": return "Email Address"
        case "telephoneNumber": return "Telephone Number"
        case "preferences/updates": return "Send me news and updates"
        case "preferences/marketing": return "Send me special offers and services"
        default: return attribute
        }
    }

    static func type(_ attribute: String) -> Callback.AttributeType {
        attribute.hasPrefix("preferences/") ? .boolean : .string
    }

    /// The policies IDM checks on an attribute besides `required`.
    static func policies(_ attribute: String) -> [PolicySpec] {
        attribute == "mail" ? [PolicySpec(policyId: "valid-email-address-format", params: [:])] : []
    }

    static let usernamePolicies = [
        PolicySpec(policyId: "valid-username", params: [:]),
        PolicySpec(policyId: "cannot-contain-characters", params: ["forbiddenChars": ["/"]]),
        PolicySpec(policyId: "minimum-length", params: ["minLength": 1]),
        PolicySpec(policyId: "maximum-length", params: ["maxLength": 255]),
    ]

    static let passwordPolicies = [
        PolicySpec(policyId: "minimum-length", params: ["minLength": 8]),
        PolicySpec(policyId: "at-least-X-capitals", params: ["numCaps": 1]),
        PolicySpec(policyId: "at-least-X-numbers", params: ["numNums": 1]),
        PolicySpec(policyId: "cannot-contain-others", params: ["disallowedFields": ["userName", "givenName", "sn"]]),
    ]

    static let kbaQuestions = ["What's your favorite color?", "Who was your first employer?"]
    static let kbaMinimumAnswers = 2

    static let termsVersion = "0.0"
    static let termsCreateDate = "2019-10-28T04:20:11.320Z"
    static let terms =
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua."
}
