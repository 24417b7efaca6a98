import AuthBridgeCore
import EmbeddedAM

/// PingOne's `checkPassword`: the user and password the form collected (settings `username`,
/// `password` name other fields). A wrong pair is PingOne's 400 `INVALID_VALUE` on `password`
/// (ForgeRock/forgerock-javascript-sdk `e2e/mock-api-v2/src/responses/invalid-username-password.ts`).
struct CheckPassword: ConnectorCapability {
    let connectorId = "pingOneSSOConnector"
    let name = "checkPassword"
    let outcomes = ["success"]

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        let username = step.value("username") ?? ""
        guard let user = step.server.users.verify(username: username, password: step.value("password") ?? "") else {
            // The leading space is PingOne's own (the recorded answer in mock-api-v2).
            return step.error(
                " Invalid username and/or password", " Invalid username and/or password",
                details: [
                    ErrorDetail(
                        code: "INVALID_VALUE", target: "password",
                        message: "The provided password did not match provisioned password")
                ])
        }
        step.interaction.userId = user.id
        return .outcome("success")
    }
}

/// `findUser`: looks the user up by the form's `username` field (or `settings.username`).
struct FindUser: ConnectorCapability {
    let connectorId = "pingOneSSOConnector"
    let name = "findUser"
    let outcomes = ["found", "notFound"]

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        guard let name = step.value("username"), let user = step.server.users.find(username: name) else {
            return .outcome("notFound")
        }
        step.interaction.userId = user.id
        return .outcome("found")
    }
}

/// `createUser`: a new user of the shared directory from the form's `username`, `password` (checked
/// against the policy) and, by `settings.attributes` (directory attribute → field), its profile.
/// A taken username is PingOne's `UNIQUENESS_VIOLATION`.
struct CreateUser: ConnectorCapability {
    let connectorId = "pingOneSSOConnector"
    let name = "createUser"
    let outcomes = ["success"]

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        let username = step.value("username") ?? ""
        let password = step.value("password") ?? ""
        if step.server.users.contains(username: username) {
            return step.error(
                "uniquenessViolation", "A user with this username already exists",
                details: [
                    ErrorDetail(
                        code: "UNIQUENESS_VIOLATION", target: step.field("username"),
                        message: "username: is unique and the value provided is already in use.")
                ])
        }
        if let violation = step.policyViolation(password) { return violation }
        let mapping =
            step.settings["attributes"]?.objectValue ?? ["mail": "email", "givenName": "givenName", "sn": "familyName"]
        var attributes: JSONObject = [:]
        for member in mapping.members {
            if let field = member.value.stringValue, let value = step.interaction.values[field]?.stringValue {
                attributes[member.key] = .string(value)
            }
        }
        do {
            let user = try step.server.users.add(username: username, password: password, attributes: attributes)
            step.interaction.userId = user.id
        } catch {
            return step.error(
                "invalidValue", "The user could not be created",
                details: [ErrorDetail(code: "INVALID_VALUE", target: step.field("username"), message: "\(error)")])
        }
        return .outcome("success")
    }
}

/// `resetPassword`: the found user's new password from the form's `password` (settings name
/// another), checked against the policy.
struct ResetPassword: ConnectorCapability {
    let connectorId = "pingOneSSOConnector"
    let name = "resetPassword"
    let outcomes = ["success"]

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        let password = step.value("password") ?? ""
        if let violation = step.policyViolation(password) { return violation }
        guard let id = step.interaction.userId, let user = step.server.users.find(id: id),
            step.server.users.setPassword(username: user.username, to: password)
        else { return .failed(code: "userNotFound", message: "No user to reset the password of") }
        return .outcome("success")
    }
}

/// PingOne Authentication's `returnSuccessResponseRedirect`: the flow signs the user on.
struct ReturnSuccess: ConnectorCapability {
    let connectorId = "pingOneAuthenticationConnector"
    let name = "returnSuccessResponseRedirect"
    let outcomes: [String] = []

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        step.interaction.userId == nil
            ? .failed(code: "noUser", message: "The flow found no user to sign on") : .complete
    }
}

/// `returnErrorResponse`: the flow fails with `settings.code` and `settings.message`.
struct FailFlow: ConnectorCapability {
    let connectorId = "pingOneAuthenticationConnector"
    let name = "returnErrorResponse"
    let outcomes: [String] = []

    func run(_ step: inout ConnectorStep) -> ConnectorResult {
        .failed(
            code: step.settings["code"]?.stringValue ?? "flowFailed",
            message: step.settings["message"]?.stringValue ?? "The flow failed")
    }
}
