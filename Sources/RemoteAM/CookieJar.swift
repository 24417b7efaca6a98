import AuthBridgeCore

/// The cookies a tenant sets besides the SSO one (`amlbcookie`, a load balancer's affinity), sent
/// back as the SDK's jar sends them, and bounded as a browser bounds its jar: RFC 6265 §6.1's
/// minimums are the policy, so a tenant that sets thousands of cookies cannot make every later
/// request too large for it. A cookie larger than `maxCookieBytes` (name, value and attributes)
/// is dropped; past `maxPerDomain` cookies for a domain, or `maxTotal` in all, the oldest goes
/// first (§5.3 step 12 leaves the order to the agent; browsers evict the least recent). Domains
/// as §5.3 steps 5–6 have them: a host-only cookie goes back to the host that set it, one with
/// `Domain` to that domain and its subdomains, and a `Domain` the host is not in is ignored.
/// Paths are not kept: every cookie is sent on every path.
struct CookieJar {
    static let maxCookieBytes = 4096
    static let maxPerDomain = 50
    static let maxTotal = 3000

    struct Cookie: Equatable {
        let name: String
        let value: String
        let domain: String
        /// Sent only to `domain` itself, not its subdomains (no `Domain` attribute).
        let hostOnly: Bool
    }

    /// Oldest first: a replaced cookie keeps its place (§5.3 step 11.3, its creation time).
    private(set) var cookies: [Cookie] = []
    /// How many of `cookies` each domain has: the per-domain bound without a scan per cookie.
    private var counts: [String: Int] = [:]

    /// Keeps, replaces or deletes the cookie `header` sets in a reply from `host`.
    mutating func store(_ header: SetCookie, from host: String) {
        let host = host.lowercased()
        guard header.size <= Self.maxCookieBytes else {
            logDebug(
                "cookie jar: dropped the cookie \(Self.shown(header.name)) from \(host): \(header.size) bytes, more than \(Self.maxCookieBytes)"
            )
            return
        }
        let domain: String
        if let attribute = header.domain {
            guard Self.domainMatches(host, attribute) else {
                logDebug(
                    "cookie jar: ignored the cookie \(Self.shown(header.name)) from \(host): its Domain \(attribute) is not the host's"
                )
                return
            }
            domain = attribute
        } else {
            domain = host
        }
        let cookie = Cookie(name: header.name, value: header.value, domain: domain, hostOnly: header.domain == nil)
        let existing = cookies.firstIndex { $0.name == cookie.name && $0.domain == cookie.domain }
        if header.deletes {
            if let existing { remove(at: existing) }
            return
        }
        if let existing {
            cookies[existing] = cookie
            return
        }
        cookies.append(cookie)
        counts[domain, default: 0] += 1
        if counts[domain, default: 0] > Self.maxPerDomain,
            let oldest = cookies.firstIndex(where: { $0.domain == domain })
        {
            evict(at: oldest, because: "more than \(Self.maxPerDomain) cookies for \(domain)")
        }
        if cookies.count > Self.maxTotal { evict(at: 0, because: "more than \(Self.maxTotal) cookies in all") }
    }

    /// The cookies a request to `host` carries, oldest first.
    func cookies(for host: String) -> [Cookie] {
        let host = host.lowercased()
        return cookies.filter { $0.hostOnly ? $0.domain == host : Self.domainMatches(host, $0.domain) }
    }

    private mutating func remove(at index: Int) {
        let cookie = cookies.remove(at: index)
        counts[cookie.domain, default: 1] -= 1
        if counts[cookie.domain] == 0 { counts[cookie.domain] = nil }
    }

    private mutating func evict(at index: Int, because reason: String) {
        let cookie = cookies[index]
        remove(at: index)
        logDebug("cookie jar: evicted the oldest cookie \(Self.shown(cookie.name)) for \(cookie.domain): \(reason)")
    }

    /// RFC 6265 §5.1.3: the host is the domain, or a name under it (an IP address only itself).
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        if host == domain { return true }
        let isAddress = host.hasPrefix("[") || host.allSatisfy { $0 == "." || $0.isASCII && $0.isNumber }
        return !isAddress && host.hasSuffix("." + domain)
    }

    /// A name for the debug log, never a value; a hostile one is cut short.
    private static func shown(_ name: String) -> String {
        name.count > 64 ? String(name.prefix(64)) + "…" : name
    }

    /// The host part of an authority, `host[:port]` or `[v6]:port`: cookies ignore ports (§8.5).
    static func host(ofAuthority authority: String) -> String {
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") { return String(authority[...close]) }
        return String(authority.prefix { $0 != ":" })
    }
}
