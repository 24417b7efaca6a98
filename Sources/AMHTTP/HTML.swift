import HTTPServer

/// Text written into the HTML pages this face serves (the form_post page, the login page):
/// everything taken from a request, a journey or a client is escaped here, once, for both text
/// and attribute values (quotes included, so a value can never close its attribute).
enum HTML {
    static func escape(_ text: String) -> String {
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

    static let contentType = HTTPRequest.Header("Content-Type", "text/html;charset=UTF-8")
}
