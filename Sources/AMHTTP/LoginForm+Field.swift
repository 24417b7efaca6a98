import AuthBridgeCore

extension LoginForm {
    /// One callback of a step as HTML: its prompt, its field(s) named by its inputs, what AM said
    /// about the last answer (failed policies), or why the page cannot answer it.
    struct Field {
        var html = ""
        /// Confirmation options are the form's buttons; the page then adds no "Next".
        var isButtons = false
        /// Whether this field gets the cursor (the first one that has a field does).
        var takesFocus = false

        init(_ callback: JSONValue, autofocus: Bool) {
            let type = callback["type"]?.stringValue ?? ""
            let inputs = callback["input"]?.arrayValue ?? []
            let name = inputs.first?["name"]?.stringValue ?? ""
            let current = inputs.first?["value"] ?? .null
            let prompt = Self.output(callback, "prompt")?.stringValue ?? ""
            let focus = autofocus ? " autofocus" : ""
            takesFocus = LoginForm.answered.contains(type)
            switch type {
            case "NameCallback":
                html = Self.input(
                    "text", name, prompt, current.stringValue ?? "", extra: " autocomplete=\"username\"" + focus)
            case "PasswordCallback":
                html = Self.input("password", name, prompt, "", extra: " autocomplete=\"current-password\"" + focus)
            case "TextInputCallback":
                let value =
                    current.stringValue.flatMap { $0.isEmpty ? nil : $0 }
                    ?? Self.output(callback, "defaultText")?.stringValue ?? ""
                html = Self.input("text", name, prompt, value, extra: focus)
            case "ValidatedCreateUsernameCallback", "StringAttributeInputCallback":
                html = Self.input("text", name, prompt, current.stringValue ?? "", extra: focus)
                html += Self.failedPolicies(callback)
            case "ValidatedCreatePasswordCallback":
                let echo = Self.output(callback, "echoOn")?.boolValue == true
                html = Self.input(
                    echo ? "text" : "password", name, prompt, "", extra: " autocomplete=\"new-password\"" + focus)
                html += Self.failedPolicies(callback)
            case "NumberAttributeInputCallback":
                let value = current.isNull ? "" : JSONWriter().string(current)
                html = Self.input("number", name, prompt, value, extra: " step=\"any\"" + focus)
                html += Self.failedPolicies(callback)
            case "BooleanAttributeInputCallback":
                html = Self.checkbox(name, prompt, checked: current.boolValue == true)
                html += Self.failedPolicies(callback)
            case "ChoiceCallback":
                let choices = Self.output(callback, "choices")?.arrayValue ?? []
                let chosen = current.intValue ?? Self.output(callback, "defaultChoice")?.intValue ?? 0
                html = "<fieldset><legend>\(HTML.escape(prompt))</legend>\n"
                for (index, choice) in choices.enumerated() {
                    let checked = Int64(index) == chosen ? " checked" : ""
                    html += "<label><input type=\"radio\" name=\"\(HTML.escape(name))\" value=\"\(index)\"\(checked)> "
                    html += "\(HTML.escape(choice.stringValue ?? ""))</label>\n"
                }
                html += "</fieldset>\n"
            case "ConfirmationCallback":
                let options = Self.output(callback, "options")?.arrayValue ?? []
                if !prompt.isEmpty { html = "<p>\(HTML.escape(prompt))</p>\n" }
                for (index, option) in options.enumerated() {
                    html += "<button type=\"submit\" name=\"\(HTML.escape(name))\" value=\"\(index)\">"
                    html += "\(HTML.escape(option.stringValue ?? ""))</button>\n"
                }
                isButtons = !options.isEmpty
            case "KbaCreateCallback":
                html = Self.kba(callback, inputs: inputs, prompt: prompt)
            case "TermsAndConditionsCallback":
                let terms = Self.output(callback, "terms")?.stringValue ?? ""
                let version = Self.output(callback, "version")?.stringValue ?? ""
                html = "<div class=\"terms\">\(HTML.escape(terms))</div>\n"
                html += Self.checkbox(name, "I accept the terms and conditions (version \(version))", checked: false)
            case "TextOutputCallback":
                let message = Self.output(callback, "message")?.stringValue ?? ""
                switch Self.output(callback, "messageType")?.stringValue ?? "0" {
                case "4":
                    html = Self.note("This step carries a script for the app's SDK, which this page does not run.")
                case "2": html = "<p class=\"error\">\(HTML.escape(message))</p>\n"
                case "1": html = "<p class=\"warning\">\(HTML.escape(message))</p>\n"
                default: html = "<p>\(HTML.escape(message))</p>\n"
                }
            case "SuspendedTextOutputCallback", "PollingWaitCallback":
                html = "<p>\(HTML.escape(Self.output(callback, "message")?.stringValue ?? ""))</p>\n"
            case "HiddenValueCallback":
                // Its value stays in the step as the journey set it.
                break
            default:
                html = Self.note(
                    "This step asks for a \(type), which only an app's SDK can answer (native or JavaScript); "
                        + "this page sends it back unanswered.")
            }
        }

        static func output(_ callback: JSONValue, _ name: String) -> JSONValue? {
            callback["output"]?.arrayValue?.first { $0["name"]?.stringValue == name }?["value"]
        }

        private static func input(
            _ kind: String, _ name: String, _ label: String, _ value: String, extra: String
        )
            -> String
        {
            "<label>\(HTML.escape(label))<input type=\"\(kind)\" name=\"\(HTML.escape(name))\" "
                + "value=\"\(HTML.escape(value))\"\(extra)></label>\n"
        }

        private static func checkbox(_ name: String, _ label: String, checked: Bool) -> String {
            "<label><input type=\"checkbox\" name=\"\(HTML.escape(name))\" value=\"true\"\(checked ? " checked" : "")> "
                + "\(HTML.escape(label))</label>\n"
        }

        private static func note(_ text: String) -> String {
            "<p class=\"note\">\(HTML.escape(text))</p>\n"
        }

        /// KBA: a predefined question (AM's `predefinedQuestions`) and its answer, by the inputs'
        /// names (`…question`, `…answer`).
        private static func kba(_ callback: JSONValue, inputs: [JSONValue], prompt: String) -> String {
            let names = inputs.compactMap { $0["name"]?.stringValue }
            guard let question = names.first(where: { $0.hasSuffix("question") }),
                let answer = names.first(where: { $0.hasSuffix("answer") })
            else { return note("This step asks for a security question the page cannot lay out.") }
            let chosen = inputs.first { $0["name"]?.stringValue == question }?["value"]?.stringValue ?? ""
            var html = "<fieldset><legend>\(HTML.escape(prompt))</legend>\n"
            html += "<label>Question<select name=\"\(HTML.escape(question))\">\n"
            for option in output(callback, "predefinedQuestions")?.arrayValue ?? [] {
                let text = option.stringValue ?? ""
                html += "<option\(text == chosen ? " selected" : "")>\(HTML.escape(text))</option>\n"
            }
            html += "</select></label>\n"
            html += "<label>Answer<input type=\"text\" name=\"\(HTML.escape(answer))\" value=\"\"></label>\n"
            return html + "</fieldset>\n"
        }

        /// AM's `failedPolicies`: each a JSON string `{"params": {…}, "policyRequirement": "…"}`.
        private static func failedPolicies(_ callback: JSONValue) -> String {
            let failed = output(callback, "failedPolicies")?.arrayValue ?? []
            guard !failed.isEmpty else { return "" }
            var html = "<ul class=\"error\">\n"
            for entry in failed {
                let policy = entry.stringValue.flatMap { try? JSONParser.parse($0) } ?? entry
                var text = policy["policyRequirement"]?.stringValue ?? JSONWriter().string(policy)
                if let params = policy["params"]?.objectValue, params.count > 0 {
                    text +=
                        " ("
                        + params.members.map { "\($0.key): \(JSONWriter().string($0.value))" }
                        .joined(separator: ", ") + ")"
                }
                html += "<li>\(HTML.escape(text))</li>\n"
            }
            return html + "</ul>\n"
        }
    }
}
