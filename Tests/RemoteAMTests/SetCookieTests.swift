import AuthBridgeCore
import Testing

@testable import RemoteAM

/// The cookie jar's reading of Set-Cookie as AM sends it: a value kept, a deletion seen.
@Suite struct SetCookieTests {
    let now = CivilTime(unixSeconds: 1_767_225_600)  // 2026-01-01T00:00:00Z

    @Test func valueAndAttributes() {
        let cookie = SetCookie("amlbcookie=01; Path=/; Domain=.example.com; HttpOnly", now: now)
        #expect(cookie?.name == "amlbcookie")
        #expect(cookie?.value == "01")
        #expect(cookie?.deletes == false)
    }

    @Test func deletions() {
        for header in [
            "iPlanetDirectoryPro=; Path=/", "amlbcookie=01; Max-Age=0",
            "amlbcookie=01; Expires=Thu, 01-Jan-1970 00:00:10 GMT",
            "amlbcookie=01; Expires=Wed, 31 Dec 2025 23:59:59 GMT",
        ] {
            #expect(SetCookie(header, now: now)?.deletes == true, "\(header)")
        }
    }

    @Test func futureExpiryAndMaxAgeWinning() {
        #expect(SetCookie("a=1; Expires=Fri, 02 Jan 2026 00:00:00 GMT", now: now)?.deletes == false)
        #expect(SetCookie("a=1; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=60", now: now)?.deletes == false)
    }

    @Test func notACookie() {
        #expect(SetCookie("no equals sign", now: now) == nil)
        #expect(SetCookie("=value", now: now) == nil)
    }
}
