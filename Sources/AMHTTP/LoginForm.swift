import AuthBridgeCore
import HTTPServer

/// A journey step as an HTML form and back. The page (`LoginPageEndpoint.swift`) shows a step's
/// callbacks as form fields named by the callbacks' inputs (`IDToken1`, `IDToken2question`…) and
/// carries the step's JSON in a hidden field; the posted form is read back into that step, each
/// input taking the field of its name with the type its value had. Callbacks the page cannot
/// answer (a device profile, WebAuthn, a social provider…) are explained and sent back as they
/// came, so the journey decides what follows. Everything written comes from `HTML.escape`.
enum LoginForm {
    /// The callback types the page draws a field for; the others keep the values they came with.
    static let answered: Set<String> = [
        "NameCallback", "PasswordCallback", "TextInputCallback", "ChoiceCallback", "ConfirmationCallback",
        "BooleanAttributeInputCallback", "StringAttributeInputCallback", "NumberAttributeInputCallback",
        "ValidatedCreateUsernameCallback", "ValidatedCreatePasswordCallback", "KbaCreateCallback",
        "TermsAndConditionsCallback",
    ]

    static func step(_ step: JSONValue, message: String?, context: LoginPage.Context) -> HTTPResponse {
        let callbacks = step["callbacks"]?.arrayValue ?? []
        var body = ""
        if let description = step["description"]?.stringValue, !description.isEmpty {
            body += "<p class=\"description\">\(HTML.escape(description))</p>\n"
        }
        if let message { body += "<p class=\"error\" role=\"alert\">\(HTML.escape(message))</p>\n" }
        body += "<form method=\"post\" action=\"\(HTML.escape(context.action))\">\n"
        body += hidden("realm", context.realm)
        if let goto = context.goto { body += hidden("goto", goto) }
        if let service = context.service { body += hidden("service", service) }
        body += hidden("step", JSONWriter().string(step))
        var buttons = false
        var first = true
        for callback in callbacks {
            let field = Field(callback, autofocus: first)
            body += field.html
            buttons = buttons || field.isButtons
            if field.takesFocus { first = false }
        }
        if !buttons { body += "<button type=\"submit\">Next</button>\n" }
        body += "</form>\n"
        if let wait = callbacks.first(where: { $0["type"]?.stringValue == "PollingWaitCallback" }) {
            // The journey asks to be asked again after a while: the page posts the step back then.
            let milliseconds = Field.output(wait, "waitTime").flatMap { Int($0.stringValue ?? "") } ?? 5000
            body +=
                "<script>setTimeout(function () { document.forms[0].submit(); }, \(min(max(milliseconds, 0), 600_000)));</script>\n"
        }
        let title = step["header"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 } ?? "Sign In"
        return page(200, title: title, body: body)
    }

    /// A page with only a message: a refused request, or a journey that cannot start again.
    static func message(_ status: Int, _ text: String, context: LoginPage.Context?) -> HTTPResponse {
        var body = "<p class=\"error\" role=\"alert\">\(HTML.escape(text))</p>\n"
        if let context {
            var query = [("realm", context.realm)]
            if let service = context.service { query.append(("service", service)) }
            if let goto = context.goto { query.append(("goto", goto)) }
            let again =
                context.action + "?"
                + query.map { "\($0.0)=\(PercentEncoding.escape($0.1))" }
                .joined(separator: "&")
            body += "<p><a href=\"\(HTML.escape(again))\">Try again</a></p>\n"
        }
        return page(status, title: "Sign In", body: body)
    }

    /// A sign-in reached without a `goto`: nowhere to return to.
    static func signedIn(headers: [HTTPRequest.Header]) -> HTTPResponse {
        var response = page(200, title: "Signed In", body: "<p>You are signed in.</p>\n")
        response.headers += headers
        return response
    }

    /// The posted step with the form's values in its inputs.
    static func answer(_ step: JSONValue, with form: [String: String]) -> JSONValue {
        guard case .object(var object) = step, let callbacks = object["callbacks"]?.arrayValue else { return step }
        object["callbacks"] = .array(
            callbacks.map { callback in
                guard case .object(var entry) = callback, let type = entry["type"]?.stringValue,
                    answered.contains(type), let inputs = entry["input"]?.arrayValue
                else { return callback }
                entry["input"] = .array(
                    inputs.map { input in
                        guard case .object(var pair) = input, let name = pair["name"]?.stringValue else { return input }
                        pair["value"] = value(form[name], replacing: pair["value"] ?? .null)
                        return .object(pair)
                    })
                return .object(entry)
            })
        return .object(object)
    }

    /// A field's text as the JSON type its input had: a checkbox is true only when sent, an index
    /// an integer when it is one (anything else goes as text, for the server to refuse by name).
    private static func value(_ text: String?, replacing old: JSONValue) -> JSONValue {
        switch old {
        case .bool: return .bool(text == "true")
        case .int:
            guard let text else { return old }
            return Int64(text).map(JSONValue.int) ?? .string(text)
        case .double, .null:
            guard let text else { return old }
            if text.isEmpty { return .null }
            if let integer = Int64(text) { return .int(integer) }
            if let number = Double(text), number.isFinite { return .double(number) }
            return .string(text)
        default:
            return text.map(JSONValue.string) ?? old
        }
    }

    private static func hidden(_ name: String, _ value: String) -> String { HTML.hidden(name, value) }

    private static func page(_ status: Int, title: String, body: String) -> HTTPResponse {
        HTML.signInPage(status, title: title, body: body)
    }
}
