import AuthBridgeCore

/// WebAuthn steps as AM's WebAuthn nodes send them with `asScript: true`
/// (`AbstractWebAuthnNode.getCallbacksForWebAuthnInteraction` in ForgeRock/am-external,
/// releases/8.0.2): a TextOutputCallback whose message type is 4 (a script) carrying the script
/// that calls the browser's WebAuthn API, a second one carrying a script that shows "Waiting for
/// local device...", then the HiddenValueCallback `webAuthnOutcome` the script writes its result
/// into. A browser runs the scripts (the JS SDK's `FRWebAuthn` reads the options out of the
/// first); the native SDKs build their WebAuthn support on the MetadataCallback form only.
///
/// The scripts are AuthBridge's own, not AM's text. What a client reads from them is what AM's
/// carry: the options object literal with AM's field names and value formats (the challenge as
/// a signed byte array, `timeout` in milliseconds, `pubKeyCredParams` and
/// `authenticatorSelection` as JSON, the relying party id only when the node names one), which
/// the JS SDK parses with regular expressions (`fr-webauthn/script-parser.ts` in
/// ForgeRock/forgerock-javascript-sdk). Nothing with a `]` follows `excludeCredentials`, and
/// `allowCredentials` appears only when there are credentials, as that parser needs. The result
/// is written as AM's scripts write it: `unsupported`, or JSON with `legacyData` or `error`.
extension Callback {
    /// What the scripts put in the options object.
    struct WebAuthnScriptOptions {
        var challenge: [UInt8]
        /// Empty: the browser uses the page's origin (AM writes no id then).
        var relyingPartyId: String
        /// Milliseconds.
        var timeout: Int
        var userVerification: String
        /// The user's credential ids: `excludeCredentials` of a registration (when the node
        /// excludes them), `allowCredentials` of an authentication.
        var credentials: [[UInt8]] = []
    }

    static func webAuthnRegistrationScript(
        _ o: WebAuthnScriptOptions, relyingPartyName: String, userId: String, userName: String, displayName: String
    ) -> Callback {
        let rp =
            (o.relyingPartyId.isEmpty ? "" : "id: \(quoted(o.relyingPartyId)), ") + "name: \(quoted(relyingPartyName))"
        let options = """
            var publicKey = {
                challenge: new Int8Array(\(signedBytes(o.challenge))).buffer,
                rp: { \(rp) },
                user: {
                    id: Uint8Array.from(\(quoted(userId)), function (c) { return c.charCodeAt(0) }),
                    name: \(quoted(userName)),
                    displayName: \(quoted(displayName))
                },
                pubKeyCredParams: [ { "type": "public-key", "alg": -7 }, { "type": "public-key", "alg": -257 } ],
                attestation: "none",
                timeout: \(o.timeout),
                authenticatorSelection: {"userVerification":\(quoted(o.userVerification))},
                extensions: {},
                excludeCredentials: [\(credentialsScript(o.credentials))]
            };
            """
        return script(
            options: options, call: "navigator.credentials.create({ publicKey: publicKey })",
            fields: """
                clientData + "::" + new Int8Array(credential.response.attestationObject).toString() + "::" + credential.id
                """)
    }

    static func webAuthnAuthenticationScript(_ o: WebAuthnScriptOptions) -> Callback {
        let rpId = o.relyingPartyId.isEmpty ? "" : "\n    rpId: \(quoted(o.relyingPartyId)),"
        // Last, as AM's script has it: the JS SDK's parser reads the list up to the script's last `]`.
        let allow = o.credentials.isEmpty ? "" : ",\n    allowCredentials: [\(credentialsScript(o.credentials))]"
        let options = """
            var publicKey = {\(rpId)
                challenge: new Int8Array(\(signedBytes(o.challenge))).buffer,
                timeout: \(o.timeout),
                userVerification: \(quoted(o.userVerification)),
                extensions: {}\(allow)
            };
            """
        return script(
            options: options, call: "navigator.credentials.get({ publicKey: publicKey })",
            fields: """
                clientData + "::" + new Int8Array(credential.response.authenticatorData).toString() + "::" + \
                new Int8Array(credential.response.signature).toString() + "::" + credential.id + "::" + \
                String.fromCharCode.apply(null, new Uint8Array(credential.response.userHandle || new ArrayBuffer(0)))
                """)
    }

    /// The second script: a spinner with AM's message (`ClientScriptUtilities.properties`
    /// `waiting`), and the submit button the first script presses if the page has none.
    static let webAuthnSpinnerScript = Callback.textOutput(
        message: """
            var wrapper = document.getElementById("wrapper");
            var fieldset = wrapper && wrapper.getElementsByTagName("fieldset").item(0);
            if (fieldset) {
                var waiting = document.createElement("div");
                waiting.className = "form-group";
                waiting.textContent = "Waiting for local device...";
                fieldset.appendChild(waiting);
                if (!document.getElementById("loginButton_0")) {
                    var button = document.createElement("input");
                    button.id = "loginButton_0";
                    button.type = "submit";
                    button.hidden = true;
                    fieldset.appendChild(button);
                }
            }
            """, messageType: "4")

    /// The page's form is AM's XUI's: the hidden value's input has the callback's id, and
    /// `loginButton_0` submits it.
    private static func script(options: String, call: String, fields: String) -> Callback {
        .textOutput(
            message: """
                function webAuthnDone(value) {
                    document.getElementById("webAuthnOutcome").value = value;
                    document.getElementById("loginButton_0").click();
                }
                if (!window.PublicKeyCredential) {
                    webAuthnDone("unsupported");
                } else {
                \(indented(options))
                    \(call)
                        .then(function (credential) {
                            var clientData = String.fromCharCode.apply(null, new Uint8Array(credential.response.clientDataJSON));
                            webAuthnDone(JSON.stringify({
                                legacyData: \(fields),
                                authenticatorAttachment: credential.authenticatorAttachment
                            }));
                        })
                        .catch(function (error) {
                            webAuthnDone(JSON.stringify({ error: String(error) }));
                        });
                }
                """, messageType: "4")
    }

    private static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }.joined(separator: "\n")
    }

    /// Java's `Arrays.toString(byte[])`: signed bytes, `[1, -2, 3]`.
    static func signedBytes(_ bytes: [UInt8]) -> String {
        "[" + bytes.map { String(Int8(bitPattern: $0)) }.joined(separator: ", ") + "]"
    }

    private static func quoted(_ text: String) -> String { JSONWriter.compact(.string(text)) }
}
