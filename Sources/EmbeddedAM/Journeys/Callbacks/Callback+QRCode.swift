import AuthBridgeCore

/// The QR code step AM's MFA registration nodes send (`QRCallbackBuilder` in AM, used by
/// `MultiFactorRegistrationUtilities.createQRCodeCallback`, ForgeRock/am-external auth-nodes):
/// a script TextOutputCallback (message type 4) for AM's own UI to draw the code, and the same
/// URI in the HiddenValueCallback `mfaDeviceRegistration`, which is what the SDKs read.
extension Callback {
    static func qrCodeScript(uri: String, callbackIndex: Int) -> Callback {
        .textOutput(
            message: """
                window.QRCodeReader.createCode({
                    id: 'callback_\(callbackIndex)',
                    text: '\(javaScriptEscaped(uri))',
                    version: '20',
                    code: 'L'
                });
                """, messageType: "4")
    }

    static func mfaDeviceRegistration(uri: String) -> Callback { .hiddenValue(id: "mfaDeviceRegistration", value: uri) }

    /// A string inside a JavaScript literal as AM's encoder writes it: letters, digits and
    /// `,._` as they are, every other character as `\xHH` (or `\uHHHH` past 0xFF).
    static func javaScriptEscaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isImmune =
                (value >= 0x30 && value <= 0x39) || (value >= 0x41 && value <= 0x5A) || (value >= 0x61 && value <= 0x7A)
                || scalar == "," || scalar == "." || scalar == "_"
            if isImmune {
                out.unicodeScalars.append(scalar)
            } else if value <= 0xFF {
                out += "\\x" + hex(value, width: 2)
            } else {
                for unit in String(scalar).utf16 { out += "\\u" + hex(UInt32(unit), width: 4) }
            }
        }
        return out
    }

    private static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
