import AuthBridgeCore
import Testing

@Suite struct JSONParsing {
    @Test func scalarsAndStructure() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2.5, 3e2, true, false, null, "x"], "b": {}} "#)
        #expect(value == ["a": [1, -2.5, 300.0, true, false, .null, "x"], "b": .object([:])])
    }

    @Test func integersStayIntegers() throws {
        #expect(try JSONParser.parse("42") == .int(42))
        #expect(try JSONParser.parse("42.0") == .double(42))
        #expect(try JSONParser.parse("-0") == .int(0))
        #expect(try JSONParser.parse("1e3") == .double(1000))
        #expect(try JSONParser.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func memberOrderIsKept() throws {
        let value = try JSONParser.parse(#"{"z":1,"a":2,"m":3}"#)
        #expect(value.objectValue?.keys == ["z", "a", "m"])
        #expect(value.compactText == #"{"z":1,"a":2,"m":3}"#)
    }

    @Test func escapesAndUnicode() throws {
        #expect(try JSONParser.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\n\té😀"))
        #expect(try JSONParser.parse("\"héllo ✓\"") == .string("héllo ✓"))
    }

    @Test func syntaxErrorsSayWhere() {
        for text in [
            "", "{", "[1,]", "{\"a\" 1}", "tru", "01", "1.", "\"abc", "{\"a\":1}x", "'a'", "\"\\x\"", "\"a\u{01}\"",
        ] {
            #expect(throws: JSONParseError.self, "\(text)") { try JSONParser.parse(text) }
        }
        do {
            _ = try JSONParser.parse("[1, 2, }")
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.offset == 7)
        }
    }

    @Test func invalidUTF8IsItsOwnError() {
        for bytes: [UInt8] in [
            [0x22, 0xC3, 0x28, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0xFF], [0x22, 0xE2, 0x82, 0x22],
        ] {
            do {
                _ = try JSONParser.parse(bytes)
                Issue.record("accepted \(bytes)")
            } catch {
                #expect(error.kind == .invalidUTF8)
            }
        }
    }

    @Test func loneSurrogatesAreRefused() {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ud83d""#) }
        #expect(throws: JSONParseError.self) { try JSONParser.parse(#""\ude00""#) }
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok, maxDepth: 64) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        do {
            _ = try JSONParser.parse(deep, maxDepth: 64)
            Issue.record("accepted 65 levels")
        } catch {
            #expect(error.kind == .tooDeep)
        }
    }
}

@Suite struct JSONWriting {
    @Test func compact() {
        let value: JSONValue = [
            "s": "a/b\"c\n", "i": 3, "d": 2.5, "whole": 4.0, "n": .null, "b": true, "a": [], "o": [:],
        ]
        #expect(value.compactText == #"{"s":"a/b\"c\n","i":3,"d":2.5,"whole":4,"n":null,"b":true,"a":[],"o":{}}"#)
    }

    @Test func appleEscapesSlashes() {
        #expect(JSONWriter(options: .escapeSlashes).string(["u": "https://x/y"]) == #"{"u":"https:\/\/x\/y"}"#)
    }

    @Test func gsonEscapesHTML() {
        #expect(
            JSONWriter(options: .escapeHTML).string(["h": "<a href='x'>&="])
                == #"{"h":"\u003ca href\u003d\u0027x\u0027\u003e\u0026\u003d"}"#)
    }

    @Test func applePrettyPrinting() {
        let text = JSONWriter(options: .prettyPrinted).string(["a": 1, "b": ["c": [1, 2]], "e": []])
        #expect(text == "{\n  \"a\" : 1,\n  \"b\" : {\n    \"c\" : [\n      1,\n      2\n    ]\n  },\n  \"e\" : []\n}")
    }

    @Test func controlCharactersAreEscaped() {
        #expect(JSONValue.string("\u{01}\u{1f}").compactText == #""\u0001\u001f""#)
    }

    @Test func roundTrip() throws {
        let text = #"{"a":[1,2.25,"é",{"b":null}],"c":false}"#
        #expect(try JSONParser.parse(text).compactText == text)
    }

    /// Escaping looks every byte up in a table per option set and copies the runs between:
    /// each special character, at every offset of short and long strings, comes out as the rules say.
    @Test func escapesAtEveryOffsetOfALongString() {
        let specials: [Character] = ["\"", "\\", "/", "\n", "\u{01}", "\u{1f}", "<", ">", "&", "=", "'", "é", " ", "~"]
        for options in [JSONWriter.Options(), .escapeSlashes, .escapeHTML] {
            for length in [7, 8, 9, 16, 23, 40] {
                for offset in 0..<length {
                    for special in specials {
                        var text = String(repeating: "a", count: length)
                        text.replaceSubrange(
                            text.index(
                                text.startIndex, offsetBy: offset)...text.index(text.startIndex, offsetBy: offset),
                            with: String(special))
                        #expect(
                            JSONWriter(options: options).string(.string(text)) == referenceEscaped(text, options),
                            "\(options) \(length) \(offset)")
                    }
                }
            }
        }
    }

    /// The escaping rules, one character at a time.
    private func referenceEscaped(_ text: String, _ options: JSONWriter.Options) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "/" where options.contains(.escapeSlashes): out += "\\/"
            case "<", ">", "&", "=", "'":
                if options.contains(.escapeHTML) {
                    out += "\\u00" + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            case _ where scalar.value < 0x20:
                out += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
