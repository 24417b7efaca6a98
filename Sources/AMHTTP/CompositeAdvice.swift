/// `authIndexType=composite_advice`: the journey an advice asks for, when the advice is simple
/// enough to name one (https://docs.pingidentity.com/pingam/8.1/am-authentication/authenticate-endpoint-parameters.html).
/// AM takes the URL-decoded XML
/// `<Advices><AttributeValuePair><Attribute name="…"/><Value>…</Value></AttributeValuePair></Advices>`;
/// an advice to authenticate to a tree or service (`realm:Tree` or `Tree`) starts that journey.
/// Transaction and other advices need policy evaluation this server does not do: they are
/// refused by name.
enum CompositeAdvice {
    enum Parsed: Equatable {
        case journey(String)
        case unsupported(String)
    }

    static let journeyAdvices = ["AuthenticateToServiceConditionAdvice", "AuthenticateToTreeConditionAdvice"]

    static func parse(_ xml: String) -> Parsed {
        guard let name = between(xml, #"<Attribute name=""#, #"""#) else {
            return .unsupported("no advice in \(xml.prefix(80))")
        }
        guard journeyAdvices.contains(name) else { return .unsupported(name) }
        guard let value = between(xml, "<Value>", "</Value>"), !value.isEmpty else {
            return .unsupported("\(name) without a value")
        }
        let journey = value.split(separator: ":", maxSplits: 1).last.map(String.init) ?? value
        return .journey(journey)
    }

    private static func between(_ text: String, _ open: String, _ close: String) -> String? {
        let bytes = Array(text.utf8)
        let start = Array(open.utf8)
        let end = Array(close.utf8)
        guard let from = index(of: start, in: bytes, after: 0) else { return nil }
        let valueStart = from + start.count
        guard let to = index(of: end, in: bytes, after: valueStart) else { return nil }
        return String(decoding: bytes[valueStart..<to], as: UTF8.self)
    }

    private static func index(of needle: [UInt8], in haystack: [UInt8], after offset: Int) -> Int? {
        guard haystack.count >= needle.count, offset <= haystack.count - needle.count else { return nil }
        return (offset...(haystack.count - needle.count)).first {
            haystack[$0..<$0 + needle.count].elementsEqual(needle)
        }
    }
}
