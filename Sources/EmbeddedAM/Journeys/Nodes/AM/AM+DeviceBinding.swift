import AuthBridgeCore

extension AM {
    /// What AM's device-binding nodes share (ForgeRock/am-external auth-nodes `DeviceBinding.java`):
    /// the challenge, reading the device's JWS, its claims and its signature. Every way a JWS
    /// can be wrong is a `Refusal`, which the nodes turn into the outcome AM takes.
    enum DeviceBinding {
        /// Transient state where the Device Binding node leaves the device when it postpones the
        /// storage, for the Device Binding Storage node (`DeviceBinding.DEVICE`).
        static let deviceKey = "DeviceBinding.DEVICE"
        /// AM's clock skew allowance for `exp`, `nbf` and `iat`.
        static let skew: Double = 30
        /// The prompt texts AM shows when a node's config leaves them empty (`titleDefault`, …
        /// in `DeviceBindingNode.properties` and `DeviceSigningVerifierNode.properties`).
        static let defaultTitle = "Authentication required"
        static let defaultSubtitle = "Cryptography device binding"
        static let defaultDescription = "Please complete with biometric to proceed"

        /// 32 random bytes in standard base64 with padding, as AM's `createRandomBytes`.
        static func challenge(_ random: RandomSource) -> String {
            var text = Base64URL.encode(random.bytes(32))
            text = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
            while text.utf8.count % 4 != 0 { text += "=" }
            return text
        }

        /// The app's own error (`Abort`, `Timeout`, `ClientNotRegistered`, …) taken as the outcome.
        static func clientError(_ name: String) -> JourneyFailure.Reason {
            JourneyFailure.Reason("binding_client_error", "the app answered \(name)", ["error": .string(name)])
        }

        /// Why AM refused a device's JWS (the `FailureReason`s the signing verifier reports, and
        /// what comes before them).
        enum Refusal: Error, Equatable {
            /// Not three base64url parts of a JSON header and claims.
            case malformed
            /// The header names no key (`kid`), or the binding JWS carries no `jwk`.
            case noKey
            /// The JWK is not a key AuthBridge verifies (EC P-256 or RSA).
            case unsupportedKey(String)
            /// `alg` is not the key's algorithm (`none` included).
            case algorithm(String)
            case invalidSignature
            /// A claim failed: its name (`exp`, `challenge`, `iss`, …).
            case invalidClaim(String)

            /// The journey's failure reason: `code` for the node, the `check` that refused and,
            /// for a claim, which.
            func reason(_ code: String, _ what: String) -> JourneyFailure.Reason {
                switch self {
                case .malformed:
                    JourneyFailure.Reason(code, "the \(what) JWS is not a JWS AM reads", ["check": "jws"])
                case .noKey: JourneyFailure.Reason(code, "the \(what) JWS names no key", ["check": "key"])
                case .unsupportedKey:
                    JourneyFailure.Reason(code, "the \(what) JWS's key is not one AM verifies", ["check": "key"])
                case .algorithm(let alg):
                    JourneyFailure.Reason(
                        code, "the \(what) JWS's algorithm \(alg) is not its key's", ["check": "algorithm"])
                case .invalidSignature:
                    JourneyFailure.Reason(code, "the \(what) JWS's signature is wrong", ["check": "signature"])
                case .invalidClaim(let claim):
                    JourneyFailure.Reason(
                        code, "the \(what) JWS's \(claim) claim is not valid",
                        ["check": "claim", "claim": .string(claim)])
                }
            }
        }

        /// The device's compact JWS (RFC 7515 §7.1) as AM reconstructs it: the parsed token,
        /// its claims, and the key it names.
        struct DeviceJWS {
            var token: JWS.Unverified
            var claims: JSONObject

            init(_ compact: String) throws(Refusal) {
                guard let token = try? JWS.parse(compact),
                    case .object(let claims)? = try? JSONParser.parse(token.payload)
                else { throw .malformed }
                self.token = token
                self.claims = claims
            }

            var keyId: String { token.header["kid"]?.stringValue ?? "" }

            /// The JWK the binding JWS carries in its header.
            var embeddedKey: JSONObject? { token.header["jwk"]?.objectValue }

            /// `validateSignature`: the signature by `jwk`, EC P-256 with ES256 (the iOS SDK), RSA
            /// with RS512 (the Android SDK, forgerock-auth `devicebind/DeviceBindAuthenticators.kt`)
            /// or RS256; `none` and an algorithm that is not the key's are refused before any
            /// cryptography.
            func verify(with jwk: JSONObject) throws(Refusal) {
                let key: JWK
                do { key = try JWK(json: jwk) } catch { throw .unsupportedKey("\(error)") }
                do {
                    _ = try token.verify(allowed: [.es256, .rs256, .rs512], key: JWS.VerificationKey(key.key))
                } catch {
                    switch error {
                    case .unsecured, .algorithmNotAllowed, .keyMismatch, .unsupportedCritical:
                        throw .algorithm(token.algorithmName)
                    case .malformed, .badSignature: throw .invalidSignature
                    }
                }
            }

            /// `validateClaim`: `exp` in the future, `nbf` and `iat` not, each within AM's skew;
            /// `iss` one of the node's application ids; a `sub`; the `challenge` the node sent.
            func validateClaims(challenge: String, applicationIds: Set<String>, now: Double) throws(Refusal) {
                guard let expiry = claims["exp"]?.doubleValue, now < expiry + skew else { throw .invalidClaim("exp") }
                if let notBefore = claims["nbf"] {
                    guard let time = notBefore.doubleValue, time <= now + skew else { throw .invalidClaim("nbf") }
                }
                if let issuedAt = claims["iat"] {
                    guard let time = issuedAt.doubleValue, time <= now + skew else { throw .invalidClaim("iat") }
                }
                guard let issuer = claims["iss"]?.stringValue, applicationIds.contains(issuer) else {
                    throw .invalidClaim("iss")
                }
                guard let subject = claims["sub"], subject != .null else { throw .invalidClaim("sub") }
                guard let signed = claims["challenge"]?.stringValue,
                    ConstantTime.equal(signed, challenge)
                else { throw .invalidClaim("challenge") }
            }

            var subject: String { claims["sub"]?.stringValue ?? "" }
        }

        /// The settings both nodes read alike.
        struct Prompt: Sendable {
            var title: String
            var subtitle: String
            var description: String
            var timeout: Int
            var applicationIds: Set<String>
            var clientErrorOutcomes: [String]

            static func read(_ s: inout Settings, clientErrors: [String]) throws(SettingsError) -> Prompt {
                let ids = try s.strings("applicationIds", nonEmpty: false) ?? []
                let errors = try s.strings("clientErrorOutcomes", nonEmpty: false) ?? clientErrors
                return Prompt(
                    title: try s.localized("title")?.text ?? defaultTitle,
                    subtitle: try s.localized("subtitle")?.text ?? defaultSubtitle,
                    description: try s.localized("description")?.text ?? defaultDescription,
                    timeout: try s.int("timeout", default: 60, in: 1...86400), applicationIds: Set(ids),
                    clientErrorOutcomes: errors)
            }
        }
    }
}
