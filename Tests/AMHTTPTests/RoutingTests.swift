import AuthBridgeCore
import HTTPServer
import Testing

@testable import AMHTTP

/// The pure parts of the REST face: which endpoint a path names, version negotiation, advices.
@Suite struct Routing {
    @Test func everyPathLayoutAMUsesReachesTheEndpoint() {
        for path in [
            "/am/json/realms/root/realms/alpha/authenticate", "/json/realms/root/realms/alpha/authenticate",
            "/am/json/realms/alpha/authenticate", "/am/json/alpha/authenticate",
        ] {
            #expect(AMRoute.find(path, realm: "alpha") == .success(.authenticate), "\(path)")
        }
        #expect(AMRoute.find("/am/json/realms/root/realms/alpha/sessions/", realm: "alpha") == .success(.sessions))
        #expect(AMRoute.find("/am/oauth2/realms/root/realms/alpha/token/revoke", realm: "alpha") == .success(.revoke))
        #expect(AMRoute.find("/am/oauth2/alpha/connect/endSession", realm: "alpha") == .success(.endSession))
        #expect(AMRoute.find("/am/json/realms/root/authenticate", realm: "alpha") == .failure(.otherRealm("root")))
        #expect(AMRoute.find("/am/json/authenticate", realm: "alpha") == .failure(.otherRealm("root")))
        #expect(
            AMRoute.find("/am/json/realms/root/realms/beta/authenticate", realm: "alpha")
                == .failure(.otherRealm("beta")))
        #expect(AMRoute.find("/am/xui/", realm: "alpha") == .failure(.noSuchPath))
        #expect(AMRoute.find("/am/oauth2/realms/root/realms/alpha/token", realm: "alpha") == .failure(.noSuchPath))
    }

    @Test func versionNegotiation() {
        func chosen(_ header: String?) -> String? {
            try? APIVersion.negotiate(header, supported: ["2.0", "2.1"]).get()
        }
        #expect(chosen(nil) == "2.1")
        #expect(chosen("protocol=1.0,resource=2.0") == "2.0")
        #expect(chosen("resource=2.1, protocol=1.0") == "2.1")
        #expect(chosen("resource=2") == "2.1")
        #expect(chosen("resource=3.0") == nil)
        #expect(chosen("protocol=9.0") == nil)
        #expect(chosen("garbage") == nil)
        guard case .failure(let refused) = APIVersion.negotiate("resource=3.0", supported: ["2.1"]) else { return }
        #expect(refused.response.status == 404)
    }

    @Test func compositeAdvices() {
        let service =
            "<Advices><AttributeValuePair><Attribute name=\"AuthenticateToServiceConditionAdvice\"/><Value>/alpha:Login</Value></AttributeValuePair></Advices>"
        #expect(CompositeAdvice.parse(service) == .journey("Login"))
        let tree = service.replacingAll("AuthenticateToServiceConditionAdvice", "AuthenticateToTreeConditionAdvice")
            .replacingAll("/alpha:Login", "Registration")
        #expect(CompositeAdvice.parse(tree) == .journey("Registration"))
        #expect(CompositeAdvice.parse("<Advices/>") == .unsupported("no advice in <Advices/>"))
        #expect(
            CompositeAdvice.parse(service.replacingAll("AuthenticateToService", "Transaction"))
                == .unsupported("TransactionConditionAdvice"))
    }

    @Test func cookiesHeadersAndForms() {
        let request = HTTPRequest(
            method: "POST", target: "/x?a=1&b=%20",
            headers: [.init("Cookie", "x=1; iPlanetDirectoryPro=tok.*en ; y=2"), .init("Authorization", "Bearer abc")],
            body: Array("b=2&c=x+y".utf8))
        #expect(request.ssoToken(cookieName: "iPlanetDirectoryPro") == "tok.*en")
        #expect(request.bearerToken == "abc")
        #expect(request.parameters == ["a": "1", "b": "2", "c": "x y"])
        let header = HTTPRequest(method: "GET", target: "/", headers: [.init("iplanetdirectorypro", "h")])
        #expect(header.ssoToken(cookieName: "iPlanetDirectoryPro") == "h")
    }

    @Test func formPostEscapesWhatItWrites() {
        let page = String(
            decoding: AMRoutes.formPost(to: "https://app/cb?code=a%22b&state=%3Cx%3E").body, as: UTF8.self)
        #expect(page.contains(#"<input type="hidden" name="code" value="a&quot;b"/>"#))
        #expect(page.contains(#"<input type="hidden" name="state" value="&lt;x&gt;"/>"#))
        #expect(page.contains(#"action="https://app/cb""#))
    }
}

extension String {
    /// No Foundation here: a plain replace of every occurrence.
    func replacingAll(_ target: String, _ replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while !rest.isEmpty {
            if rest.hasPrefix(target) {
                out += replacement
                rest = rest.dropFirst(target.count)
            } else {
                out.append(rest.removeFirst())
            }
        }
        return out
    }
}
