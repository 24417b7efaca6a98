import AuthBridgeCore

/// The QR code AM's MFA registration nodes show: a script TextOutputCallback (message type
/// "4") that asks the page's `QRCodeReader` to draw the URI, the URI escaped for a JavaScript
/// string as AM's script does (every character but letters, digits, `,`, `.` and `_` as
/// `\xHH`, above U+00FF as `\uHHHH`), the shape the ForgeRock JavaScript SDK's `FRQRCode`
/// captures carry (forgerock-javascript-sdk `packages/javascript-sdk/src/fr-qr-code/index.mock.data.ts`).
/// Clients read the URI from the `mfaDeviceRegistration` hidden value, not from here.
extension Callback {
    static func qrCodeScript(uri: String, callbackIndex: Int) -> Callback {
        let script =
            "window.QRCodeReader.createCode({\n    id: 'callback_\(callbackIndex)',\n    text: '"
            + javaScriptEscaped(uri) + "',\n    version: '20',\n    code: 'L'\n});"
        return .textOutput(message: script, messageType: "4")
    }

    static func javaScriptEscaped(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for unit in text.utf16 {
            if unit < 0x80, let byte = UInt8(exactly: unit),
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            {
                out.append(byte)
            } else if unit <= 0xFF {
                out += Array("\\x".utf8) + [hex[Int(unit >> 4)], hex[Int(unit & 15)]]
            } else {
                out += Array("\\u".utf8)
                for shift in [12, 8, 4, 0] { out.append(hex[Int((unit >> UInt16(shift)) & 15)]) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
