import AuthBridgeCore

/// One problem PingOne names in an error's `details[].rawResponse.details[]`
/// (ping-ios-sdk `Davinci/Davinci/module/ErrorNode.swift` `ErrorDetail`): a code, the field it is
/// about, a message, and for a password policy the unsatisfied requirements (`innerError`).
struct ErrorDetail: Equatable, Sendable {
    var code: String
    var target: String
    var message: String
    var innerError: JSONObject? = nil

    var json: JSONValue {
        var object: JSONObject = ["code": .string(code), "target": .string(target), "message": .string(message)]
        if let innerError { object["innerError"] = .object(innerError) }
        return .object(object)
    }
}

/// A connector's error as a DaVinci client gets it: HTTP 400 with the connector and capability
/// that failed, a message, and PingOne's own response under `details[].rawResponse`
/// (ForgeRock/forgerock-javascript-sdk `e2e/mock-api-v2/src/responses/invalid-username-password.ts`).
/// The SDKs make it an ErrorNode, keep the form, and submit it again to the same `_links.next`.
struct DaVinciError: Equatable, Sendable {
    var connectorId: String
    var capabilityName: String
    var code: String
    var message: String
    /// PingOne's own code (`INVALID_DATA`) and message in `rawResponse`.
    var rawCode = "INVALID_DATA"
    var rawMessage = "The request could not be completed. One or more validation errors were in the request."
    var details: [ErrorDetail]
    var httpStatus = 400

    /// The answer's body, given the interaction and the id of the step that failed.
    func body(
        interactionId: String, companyId: String, connectionId: String, stepId: String, requestId: String
    )
        -> JSONValue
    {
        let raw: JSONValue = [
            "id": .string(requestId), "code": .string(rawCode), "message": .string(rawMessage),
            "details": .array(details.map(\.json)),
        ]
        return [
            "interactionId": .string(interactionId), "companyId": .string(companyId),
            "connectionId": .string(connectionId), "connectorId": .string(connectorId), "id": .string(stepId),
            "capabilityName": .string(capabilityName), "errorCategory": "Unexpected", "code": .string(code),
            "cause": .null, "expected": false, "message": .string(message), "httpResponseCode": .int(Int64(httpStatus)),
            "details": [["rawResponse": raw, "statusCode": .int(Int64(httpStatus))]],
            "isResponseCompatibleWithMobileAndWebSdks": true,
        ]
    }

    /// A form's fields refused before any connector ran.
    static func validation(_ details: [ErrorDetail]) -> DaVinciError {
        DaVinciError(
            connectorId: "httpConnector", capabilityName: "customHTMLTemplate", code: "INVALID_DATA",
            message: details.first?.message ?? "Invalid data", details: details)
    }
}
