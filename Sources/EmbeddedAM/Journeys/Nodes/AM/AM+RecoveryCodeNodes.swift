import AuthBridgeCore

extension AM {
    /// AM's Recovery Code Display node (`RecoveryCodeDisplayNode` and its script and bundle in
    /// ForgeRock/am-external, releases/8.0.2, auth-nodes): the codes a registration left in
    /// transient `recoveryCodes` (with `recoveryCodeDeviceName`) shown once, in a script
    /// TextOutputCallback (message type 4) that writes them into AM's page, each on a line of
    /// its own as the SDKs' recovery-code parsers read them (`FRRecoveryCodes` in
    /// ForgeRock/forgerock-javascript-sdk); the keys are then removed. No codes: straight on.
    struct RecoveryCodeDisplayNode: JourneyNode {
        static let type = NodeType(name: "RecoveryCodeDisplayNode") {
            (_: inout Settings, _: AMNodeSource) throws(SettingsError) in .node(RecoveryCodeDisplayNode())
        }

        static let codesKey = "recoveryCodes"
        static let deviceNameKey = "recoveryCodeDeviceName"
        static let title = "Your Recovery Codes"
        static let description = "You must make a copy of these recovery codes. They cannot be displayed again."
        static let introduction =
            "Use one of these codes to authenticate if you lose your device, which has been named:"

        var outcomes: [String] { ["outcome"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            guard context.answers == nil else { return .outcome("outcome") }
            let codes = (context.transient[Self.codesKey]?.arrayValue ?? []).compactMap(\.stringValue)
            guard !codes.isEmpty else { return .outcome("outcome") }
            let name = JourneyValues.text(context.transient[Self.deviceNameKey])
            context.transient[Self.codesKey] = nil
            context.transient[Self.deviceNameKey] = nil
            return .send(
                Step(callbacks: [.textOutput(message: Self.script(codes: codes, deviceName: name), messageType: "4")]))
        }

        /// The page fragment as JavaScript string lines: title and description, one centred
        /// line per code, then the device's name in `<em>`.
        static func script(codes: [String], deviceName: String) -> String {
            var lines = [
                "<div class=\\\"panel panel-default\\\">", "    <div class=\\\"panel-body text-center\\\">",
                "        <h3>\(title)</h3>", "        <h4>\(description)</h4>", "    </div>",
            ]
            for code in codes { lines += ["<div class=\\\"text-center\\\">", code, "</div>"] }
            lines += [
                "<div class=\\\"panel-body text-center\\\">", "        <p>\(introduction) <em>\(deviceName)</em></p>",
                "</div>",
            ]
            let body = lines.map { "\"\($0)\\n\" +" }.joined(separator: "\n    ")
            return """
                var newLocation = document.getElementById("wrapper");
                var oldHtml = newLocation.getElementsByTagName("fieldset")[0].innerHTML;
                newLocation.getElementsByTagName("fieldset")[0].innerHTML = \(body)
                    "</div>" + oldHtml;
                document.body.appendChild(newLocation);
                """
        }
    }

    /// AM's Recovery Code Collector Decision node (`RecoveryCodeCollectorDecisionNode`): a
    /// NameCallback "Recovery Code" until a non-empty one comes, then `true` when it is an unused
    /// recovery code of the user's first device of `recoveryCodeType` (OATH, PUSH, WEB_AUTHN),
    /// which spends it, else `false`.
    struct RecoveryCodeCollectorDecisionNode: JourneyNode {
        static let type = NodeType(name: "RecoveryCodeCollectorDecisionNode") {
            (s: inout Settings, _: AMNodeSource) throws(SettingsError) in
            let kinds: [String: DeviceKind] = ["OATH": .oath, "PUSH": .push, "WEB_AUTHN": .webauthn]
            let name = try s.string("recoveryCodeType", default: "OATH")
            guard let kind = kinds[name] else {
                throw SettingsError(reason: "\"recoveryCodeType\" must be one of OATH, PUSH, WEB_AUTHN")
            }
            return .node(RecoveryCodeCollectorDecisionNode(kind: kind))
        }

        var kind: DeviceKind
        var outcomes: [String] { ["true", "false"] }

        func process(_ context: inout NodeContext) -> NodeAction {
            let code = context.answers.flatMap { $0.first }.map { JourneyValues.text($0.value) } ?? ""
            guard !code.isEmpty else { return .send(Step(callbacks: [.name(prompt: "Recovery Code")])) }
            var spent = false
            _ = context.users.update(username: context.username) {
                spent = $0.devices.spendRecoveryCode(code, kind: kind)
            }
            guard spent else {
                context.failureReason = JourneyFailure.Reason(
                    "wrong_recovery_code",
                    "the recovery code given is not an unused one of \(context.username)'s \(kind) device")
                return .outcome("false")
            }
            return .outcome("true")
        }
    }
}
