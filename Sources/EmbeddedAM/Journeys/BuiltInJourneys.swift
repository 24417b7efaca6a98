/// The journeys every daemon starts with, written in the same JSON format users load with
/// `--journeys` (docs/journeys.md), so the built-ins exercise the loader too.
enum BuiltInJourneys {
    static let login = #"""
    {
      "name": "Login",
      "entry": "credentials",
      "nodes": {
        "credentials": {
          "type": "page", "stage": "UsernamePassword", "header": "Sign In",
          "callbacks": [
            { "type": "NameCallback", "prompt": "User Name" },
            { "type": "PasswordCallback", "prompt": "Password" }
          ],
          "outcomes": { "next": "dataStore" }
        },
        "dataStore": { "type": "dataStoreDecision", "outcomes": { "true": "success", "false": "failure" } },
        "success": { "type": "success" },
        "failure": { "type": "failure" }
      }
    }
    """#

    static let registration = #"""
    {
      "name": "Registration",
      "entry": "signUp",
      "nodes": {
        "signUp": {
          "type": "page", "header": "Sign Up",
          "description": "Signing up is fast and easy.<br>Already have an account? <a href='#/service/Login'>Sign In</a>",
          "callbacks": [
            { "type": "ValidatedCreateUsernameCallback", "prompt": "Username", "attribute": "userName",
              "policies": [ { "policyId": "required" }, { "policyId": "unique" } ] },
            { "type": "StringAttributeInputCallback", "attribute": "givenName", "prompt": "First Name",
              "policies": [ { "policyId": "required" } ] },
            { "type": "StringAttributeInputCallback", "attribute": "sn", "prompt": "Last Name",
              "policies": [ { "policyId": "required" } ] },
            { "type": "StringAttributeInputCallback", "attribute": "mail", "prompt": "Email Address",
              "policies": [ { "policyId": "required" }, { "policyId": "valid-email-address-format" } ] },
            { "type": "ValidatedCreatePasswordCallback", "prompt": "Password", "attribute": "password",
              "policies": [
                { "policyId": "required" },
                { "policyId": "minimum-length", "params": { "minLength": 8 } },
                { "policyId": "at-least-X-capitals", "params": { "numCaps": 1 } },
                { "policyId": "at-least-X-numbers", "params": { "numNums": 1 } },
                { "policyId": "cannot-contain-others", "params": { "disallowedFields": [ "userName", "givenName", "sn" ] } }
              ] }
          ],
          "outcomes": { "next": "create" }
        },
        "create": { "type": "createObject", "outcomes": { "created": "success", "failed": "failure" } },
        "success": { "type": "success" },
        "failure": { "type": "failure" }
      }
    }
    """#

    static let all = [login, registration]
}
