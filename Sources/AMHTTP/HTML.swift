import HTTPServer

/// Text written into the HTML pages the HTTP face serves (the form_post page, AM's login page,
/// PingOne's sign-on page): everything taken from a request, a journey, a flow or a client is
/// escaped here, once, for both text and attribute values (quotes included, so a value can never
/// close its attribute).
public enum HTML {
    public static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    public static let contentType = HTTPRequest.Header("Content-Type", "text/html;charset=UTF-8")

    /// No script or style from elsewhere: a sign-in page works with nothing but this server.
    static let security = HTTPRequest.Header(
        "Content-Security-Policy",
        "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; frame-ancestors 'none'")

    /// A sign-in page: `body` (already escaped markup) under `title`, never cached or framed.
    public static func signInPage(_ status: Int, title: String, body: String) -> HTTPResponse {
        let html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>
            body { font-family: system-ui, sans-serif; background: #f4f5f7; margin: 0; }
            main { max-width: 26rem; margin: 3rem auto; background: #fff; padding: 1.5rem 2rem; border-radius: 8px; }
            label, fieldset { display: block; margin: 0 0 1rem; }
            input[type=text], input[type=password], input[type=number], input[type=tel], select { display: block; width: 100%; box-sizing: border-box; padding: .5rem; margin-top: .25rem; }
            button { padding: .5rem 1.25rem; margin: 0 .5rem .5rem 0; }
            .error { color: #b00020; } .warning { color: #8a5a00; } .note { color: #555; font-size: .9rem; }
            .mono { font-family: ui-monospace, monospace; word-break: break-all; }
            .terms { white-space: pre-wrap; max-height: 12rem; overflow: auto; border: 1px solid #ccc; padding: .5rem; }
            </style></head>
            <body><main>
            <h1>\(escape(title))</h1>
            \(body)</main></body></html>

            """
        return HTTPResponse(
            status: status,
            headers: [contentType, AMResponse.noStore, security, .init("X-Frame-Options", "DENY")],
            body: Array(html.utf8))
    }

    /// A hidden form field.
    public static func hidden(_ name: String, _ value: String) -> String {
        "<input type=\"hidden\" name=\"\(escape(name))\" value=\"\(escape(value))\">\n"
    }
}
