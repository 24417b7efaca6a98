import AuthBridgeCore
import Testing

@testable import RemoteAM

/// The remote cookie jar's bounds, RFC 6265 §6.1's minimums as the policy: a cookie past 4096
/// bytes dropped, 50 per domain and 3000 in all, the oldest evicted first; and the domains a
/// cookie goes back to (§5.3).
@Suite struct CookieJarTests {
    let now = CivilTime(unixSeconds: 1_767_225_600)

    func set(_ header: String) -> SetCookie {
        guard let cookie = SetCookie(header, now: now) else { fatalError("not a cookie: \(header)") }
        return cookie
    }

    func names(_ jar: CookieJar, for host: String) -> [String] { jar.cookies(for: host).map(\.name) }

    @Test func keptReplacedInPlaceAndDeleted() {
        var jar = CookieJar()
        jar.store(set("amlbcookie=01; Path=/"), from: "am.example.com")
        jar.store(set("route=a"), from: "am.example.com")
        jar.store(set("amlbcookie=02"), from: "am.example.com")
        #expect(jar.cookies(for: "am.example.com").map(\.value) == ["02", "a"], "a replaced cookie keeps its place")
        jar.store(set("amlbcookie=02; Max-Age=0"), from: "am.example.com")
        #expect(names(jar, for: "am.example.com") == ["route"])
    }

    @Test func aCookieOf4096BytesIsKeptAndOneByteMoreIsDropped() {
        var jar = CookieJar()
        let attributes = "; Path=/; HttpOnly"
        let fits = "big=" + String(repeating: "v", count: 4096 - 4 - attributes.count) + attributes
        #expect(fits.utf8.count == 4096)
        jar.store(set(fits), from: "am.example.com")
        #expect(names(jar, for: "am.example.com") == ["big"])
        let over = "big=" + String(repeating: "w", count: 4096 - 4 - attributes.count + 1) + attributes
        jar.store(set(over), from: "am.example.com")
        #expect(
            jar.cookies(for: "am.example.com").map(\.value) == [
                String(repeating: "v", count: 4096 - 4 - attributes.count)
            ],
            "the oversize cookie neither replaces nor joins")
    }

    @Test func fiftyPerDomainTheOldestEvictedFirst() {
        var jar = CookieJar()
        jar.store(set("other=1"), from: "other.example.org")
        for index in 0..<60 { jar.store(set("c\(index)=\(index)"), from: "am.example.com") }
        #expect(names(jar, for: "am.example.com") == (10..<60).map { "c\($0)" })
        #expect(names(jar, for: "other.example.org") == ["other"], "another domain's cookies are not evicted")
        // Replacing an old cookie does not make it new: it is still the next one to go.
        jar.store(set("c10=again"), from: "am.example.com")
        jar.store(set("c60=60"), from: "am.example.com")
        #expect(names(jar, for: "am.example.com").first == "c11")
    }

    @Test func threeThousandInAllTheOldestEvictedFirst() {
        var jar = CookieJar()
        for domain in 0..<70 {
            for index in 0..<50 { jar.store(set("c\(index)=1"), from: "h\(domain).example.com") }
        }
        #expect(jar.cookies.count == 3000)
        #expect(names(jar, for: "h0.example.com") == [], "the first 10 domains' 500 cookies went first")
        #expect(names(jar, for: "h9.example.com") == [])
        #expect(names(jar, for: "h10.example.com").count == 50)
        #expect(names(jar, for: "h69.example.com").count == 50)
    }

    @Test func aHostileFloodLeavesAJarOfBoundedSize() {
        var jar = CookieJar()
        for index in 0..<3000 {
            jar.store(set("flood\(index)=" + String(repeating: "x", count: 100)), from: "am.example.com")
        }
        let sent = jar.cookies(for: "am.example.com")
        #expect(sent.count == 50)
        #expect(sent.first?.name == "flood2950")
    }

    @Test func domainsAsRFC6265() {
        var jar = CookieJar()
        jar.store(set("hostOnly=1"), from: "am.example.com")
        jar.store(set("wide=1; Domain=.Example.com"), from: "am.example.com")
        jar.store(set("foreign=1; Domain=example.org"), from: "am.example.com")
        jar.store(set("sibling=1; Domain=auth.example.com"), from: "am.example.com")
        #expect(names(jar, for: "am.example.com") == ["hostOnly", "wide"])
        #expect(names(jar, for: "auth.example.com") == ["wide"], "a host-only cookie stays with its host")
        #expect(names(jar, for: "example.com") == ["wide"])
        #expect(names(jar, for: "example.org") == [], "a Domain the host is not in is ignored")
        #expect(names(jar, for: "AM.EXAMPLE.COM") == ["hostOnly", "wide"])
        jar.store(set("ip=1; Domain=0.0.1"), from: "127.0.0.1")
        jar.store(set("ip=1"), from: "127.0.0.1")
        #expect(names(jar, for: "127.0.0.1") == ["ip"])
        #expect(names(jar, for: "localhost") == [])
    }

    @Test func hostsOfAuthorities() {
        #expect(CookieJar.host(ofAuthority: "127.0.0.1:8080") == "127.0.0.1")
        #expect(CookieJar.host(ofAuthority: "tenant.example.com") == "tenant.example.com")
        #expect(CookieJar.host(ofAuthority: "[::1]:8443") == "[::1]")
    }
}
