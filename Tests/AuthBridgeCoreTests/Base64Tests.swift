import AuthBridgeCore
import Testing

@Suite struct Base64Standard {
    // RFC 4648 §10 vectors, standard alphabet with padding.
    @Test func rfc4648() {
        let vectors = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64.encode([0xfb, 0xff]) == "+/8=")
        #expect(Base64.decode("+/8=") == [0xfb, 0xff])
    }

    @Test func refusesWhatIsNotCanonical() {
        for text in ["Zg", "Zg=", "-_8=", "Z===", "Zm9v\n", "Zg=a", "=Zg="] { #expect(Base64.decode(text) == nil) }
    }
}
