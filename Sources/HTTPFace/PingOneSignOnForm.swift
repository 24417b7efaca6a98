import AMHTTP
import AuthBridgeCore
import HTTPServer

/// A DaVinci form as HTML and back, for the sign-on page (`PingOneSignOnPage`). Fields are drawn
/// by their `type` as the SDKs' collectors read them (ForgeRock/ping-javascript-sdk
/// `packages/davinci-client/src/lib/collector.types.ts`): values are form fields named
/// `field.<key>`, buttons send `action=<key>`; the posted form becomes the continue request
/// davinci-client sends (`davinci.utils.ts` `transformSubmitRequest`). What only an SDK can do
/// (an external IdP's sign-in, Protect's signals) is explained and left to the flow.
enum PingOneSignOnForm {
    /// A form's answer as it came back from the browser.
    struct Posted {
        var step: JSONValue
        var fields: [(String, String)]

        /// The button pressed; none when the form was sent with Enter (the form's first submit).
        var action: String? { fields.first { $0.0 == "action" }?.1 }

        func values(_ name: String) -> [String] { fields.filter { $0.0 == name }.map(\.1) }
        func value(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

        /// `{id, eventName, interactionId, parameters: {eventType, data: {actionKey, formData}}}`.
        var continueRequest: JSONValue {
            let components = PingOneSignOnForm.fields(of: step)
            let pressed = action.flatMap { key in components.first { $0["key"]?.stringValue == key } }
            let isFlowButton = pressed.map { Self.flowButtons.contains($0["type"]?.stringValue ?? "") } ?? false
            var formData = JSONObject()
            for field in components {
                guard let key = field["key"]?.stringValue, !key.isEmpty, let type = field["type"]?.stringValue,
                    let value = formValue(type: type, key: key, field: field)
                else { continue }
                formData[key] = value
            }
            let actionKey =
                action
                ?? components.first { $0["type"]?.stringValue == "SUBMIT_BUTTON" }?["key"]?.stringValue ?? ""
            return [
                "id": step["id"] ?? "", "eventName": step["eventName"] ?? "continue",
                "interactionId": step["interactionId"] ?? "",
                "parameters": [
                    "eventType": .string(isFlowButton ? "action" : "submit"),
                    "data": ["actionKey": .string(actionKey), "formData": .object(formData)],
                ],
            ]
        }

        static let flowButtons: Set<String> = ["FLOW_BUTTON", "FLOW_LINK"]

        /// A field's value in the JSON type its collector takes.
        private func formValue(type: String, key: String, field: JSONObject) -> JSONValue? {
            let name = "field." + key
            switch type {
            case "TEXT", "PASSWORD", "PASSWORD_VERIFY", "DROPDOWN", "RADIO", "SINGLE_SELECT", "DEVICE_REGISTRATION":
                return value(name).map(JSONValue.string)
            case "COMBOBOX", "CHECKBOX", "MULTI_SELECT":
                return .array(values(name).map(JSONValue.string))
            case "PHONE_NUMBER":
                return [
                    "countryCode": .string(value(name + ".countryCode") ?? ""),
                    "phoneNumber": .string(value(name + ".phoneNumber") ?? ""),
                ]
            case "DEVICE_AUTHENTICATION":
                // The device as both SDKs submit it: the option's type, id and description.
                guard let id = value(name) else { return nil }
                let option = field["options"]?.arrayValue?.first { $0["id"]?.stringValue == id }
                return [
                    "type": option?["type"] ?? "", "id": .string(id), "description": option?["description"] ?? "",
                ]
            case "PROTECT": return ""
            default: return nil
            }
        }
    }

    static func fields(of step: JSONValue) -> [JSONObject] {
        (step["form"]?["components"]?["fields"]?.arrayValue ?? []).compactMap(\.objectValue)
    }

    /// The form as a page: `errors` next to the fields they name, `message` above, the values the
    /// browser sent kept (never a password).
    static func page(
        _ step: JSONValue, authorize: String, errors: [(target: String, message: String)], message: String?,
        posted: Posted?
    ) -> HTTPResponse {
        var kept = step
        if case .object(var object) = kept {
            // Its token travels in PingOne's HttpOnly cookie, not in the page.
            object["interactionToken"] = nil
            kept = .object(object)
        }
        var body = ""
        if let description = step["form"]?["description"]?.stringValue, !description.isEmpty {
            body += "<p class=\"description\">\(HTML.escape(description))</p>\n"
        }
        let general = errors.filter { target in !fields(of: step).contains { $0["key"]?.stringValue == target.target } }
        if message != nil || !general.isEmpty {
            let texts = general.map(\.message) + (general.isEmpty ? [message ?? ""] : [])
            for text in texts { body += "<p class=\"error\" role=\"alert\">\(HTML.escape(text))</p>\n" }
        }
        body += "<form method=\"post\">\n"
        body += HTML.hidden("authorize", authorize) + HTML.hidden("step", JSONWriter().string(kept))
        var focus = true
        for field in fields(of: step) {
            let key = field["key"]?.stringValue ?? ""
            let mine = errors.filter { $0.target == key && !key.isEmpty }.map(\.message)
            body += html(field, posted: posted, errors: mine, autofocus: &focus)
        }
        body += "</form>\n"
        let title = step["form"]?["name"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "Sign On"
        return HTML.signInPage(200, title: title, body: body)
    }

    /// One field as HTML.
    private static func html(_ field: JSONObject, posted: Posted?, errors: [String], autofocus: inout Bool) -> String {
        let type = field["type"]?.stringValue ?? ""
        let key = field["key"]?.stringValue ?? ""
        let label = HTML.escape(field["label"]?.stringValue ?? key)
        let name = HTML.escape("field." + key)
        let required = field["required"]?.boolValue == true ? " required" : ""
        let problem = errors.map { "<span class=\"error\" role=\"alert\"> \(HTML.escape($0))</span>" }.joined()
        func focus() -> String {
            defer { autofocus = false }
            return autofocus ? " autofocus" : ""
        }
        let previous = posted?.value("field." + key) ?? field["value"]?.stringValue ?? ""
        switch type {
        case "TEXT":
            return
                "<label>\(label)\(problem)<input type=\"text\" name=\"\(name)\" value=\"\(HTML.escape(previous))\"\(required)\(focus())></label>\n"
        case "PASSWORD", "PASSWORD_VERIFY":
            let complete = type == "PASSWORD" ? "current-password" : "new-password"
            return
                "<label>\(label)\(problem)<input type=\"password\" name=\"\(name)\" autocomplete=\"\(complete)\"\(required)\(focus())></label>\n"
        case "SUBMIT_BUTTON":
            return "<button type=\"submit\" name=\"action\" value=\"\(HTML.escape(key))\">\(label)</button>\n"
        case "FLOW_BUTTON", "FLOW_LINK":
            return
                "<button type=\"submit\" name=\"action\" value=\"\(HTML.escape(key))\" formnovalidate>\(label)</button>\n"
        case "LABEL":
            return "<p>\(HTML.escape(field["content"]?.stringValue ?? ""))</p>\n"
        case "QR_CODE":
            // The QR code's content (`otpauth://…`): the emulated phone takes it as the URI.
            let content = HTML.escape(field["content"]?.stringValue ?? "")
            return
                "<p class=\"note\">The authenticator app's key (the QR code's content):</p><p class=\"mono\" id=\"qr-code\">\(content)</p>\n"
        case "DROPDOWN", "RADIO", "SINGLE_SELECT", "DEVICE_REGISTRATION", "DEVICE_AUTHENTICATION":
            let options = (field["options"]?.arrayValue ?? []).map { option -> String in
                let value =
                    option["value"]?.stringValue ?? option["id"]?.stringValue ?? option["type"]?.stringValue ?? ""
                let text = [option["label"], option["title"], option["description"]].compactMap { $0?.stringValue }
                    .joined(separator: " — ")
                let chosen = value == previous || (previous.isEmpty && option["default"]?.boolValue == true)
                return
                    "<option value=\"\(HTML.escape(value))\"\(chosen ? " selected" : "")>\(HTML.escape(text.isEmpty ? value : text))</option>"
            }
            return
                "<label>\(label)\(problem)<select name=\"\(name)\"\(required)\(focus())>\(options.joined())</select></label>\n"
        case "COMBOBOX", "CHECKBOX", "MULTI_SELECT":
            let chosen = Set(posted?.values("field." + key) ?? [])
            let boxes = (field["options"]?.arrayValue ?? []).map { option -> String in
                let value = option["value"]?.stringValue ?? ""
                let text = option["label"]?.stringValue ?? value
                return
                    "<label><input type=\"checkbox\" name=\"\(name)\" value=\"\(HTML.escape(value))\"\(chosen.contains(value) ? " checked" : "")> \(HTML.escape(text))</label>"
            }
            return "<fieldset><legend>\(label)\(problem)</legend>\(boxes.joined())</fieldset>\n"
        case "PHONE_NUMBER":
            let code = posted?.value("field.\(key).countryCode") ?? field["defaultCountryCode"]?.stringValue ?? ""
            let number = posted?.value("field.\(key).phoneNumber") ?? ""
            return
                "<fieldset><legend>\(label)\(problem)</legend><label>Country code<input type=\"text\" name=\"\(name).countryCode\" value=\"\(HTML.escape(code))\" size=\"4\"></label><label>Number<input type=\"tel\" name=\"\(name).phoneNumber\" value=\"\(HTML.escape(number))\"\(required)\(focus())></label></fieldset>\n"
        case "PROTECT":
            return ""
        case "SOCIAL_LOGIN_BUTTON":
            return
                "<p class=\"note\">\(label): a sign-in with an external identity provider runs in an app's DaVinci client, not on this page.</p>\n"
        default:
            return "<p class=\"note\">A field of type \(HTML.escape(type)) that this page does not draw.</p>\n"
        }
    }
}
