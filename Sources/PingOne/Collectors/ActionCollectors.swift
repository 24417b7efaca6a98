import AuthBridgeCore

/// `SUBMIT_BUTTON`, `FLOW_BUTTON`, `FLOW_LINK`, `ACTION`: a button, whose key comes back as
/// `parameters.data.actionKey` and picks the form's outcome (ping-ios-sdk `SubmitCollector.swift`,
/// `FlowCollector.swift`; `Collectors.asJson`).
struct ButtonCollector: CollectorType {
    let names = ["SUBMIT_BUTTON", "FLOW_BUTTON", "FLOW_LINK", "ACTION"]
    let kind = CollectorKind.action
    let inputTypes = ["FLOW_BUTTON": "ACTION", "FLOW_LINK": "ACTION"]

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] { [] }
}

/// `LABEL`: text to show (`content`), nothing comes back.
struct LabelCollector: CollectorType {
    let names = ["LABEL"]
    let kind = CollectorKind.display

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] { [] }
}

/// `SOCIAL_LOGIN_BUTTON` (ping-ios-sdk `IdpCollector`, external-idp module): a button to an
/// external provider, `{idpId, idpType, idpEnabled, links.authenticate.href}`. Pressing it is an
/// action whose key is the field's; the provider's answer is the scenario's (docs/davinci.md).
struct IdpCollector: CollectorType {
    let names = ["SOCIAL_LOGIN_BUTTON"]
    let kind = CollectorKind.action

    func problems(_ value: JSONValue?, field: JSONObject, key: String) -> [ErrorDetail] { [] }
}
