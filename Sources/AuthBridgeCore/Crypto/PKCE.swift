/// PKCE code challenges (RFC 7636 §4.2): the client makes them, the server checks them.
public enum PKCE {
    public static func challenge(for verifier: String, method: String = "S256") -> String {
        method == "S256" ? Base64URL.encode(SHA256.hash(verifier)) : verifier
    }
}
