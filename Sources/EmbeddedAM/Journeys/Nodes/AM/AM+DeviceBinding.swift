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

        /// Why AM refused a device's JWS (the `FailureReason`s the signing verifier reports, and
        /// what comes before them).
        enum Refusal: Error, Equatable {
            /// Not three base64url parts of a JSON header and claims.
            case malformed
            /// The header names no key (`kid`), or the binding JWS carries no `jwk`.
            case noKey
            /// The JWK is not a key AuthBridge verifies (an EC P-256 key for ES256).
            case unsupportedKey(String)
            /// `alg` is not the key's algorithm (`none` included).
            case algorithm(String)
            case invalidSignature
            /// A claim failed: its name (`exp`, `challenge`, `iss`, …).
            case invalidClaim(String)
        }

        /// A compact JWS (RFC 7515 §7.1) as AM reconstructs it: header, claims, what was signed
        /// and the signature.
        struct JWS {
            var header: JSONObject
            var claims: JSONObject
            var signingInput: ArraySlice<UInt8>
            var signature: [UInt8]

            init(_ compact: String) throws(Refusal) {
                let bytes = Array(compact.utf8)
                let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
                guard dots.count == 2,
                    let headerBytes = Base64URL.decode(bytes: bytes[..<dots[0]]),
                    let claimBytes = Base64URL.decode(bytes: bytes[(dots[0] + 1)..<dots[1]]),
                    let signature = Base64URL.decode(bytes: bytes[(dots[1] + 1)...]),
                    case .object(let header)? = try? JSONParser.parse(headerBytes),
                    case .object(let claims)? = try? JSONParser.parse(claimBytes)
                else { throw .malformed }
                self.header = header
                self.claims = claims
                self.signingInput = bytes[..<dots[1]]
                self.signature = signature
            }

            var keyId: String { header["kid"]?.stringValue ?? "" }

            /// The JWK the binding JWS carries in its header.
            var embeddedKey: JSONObject? { header["jwk"]?.objectValue }

            /// `validateSignature`: the signature by `jwk` under the header's algorithm.
            func verify(with jwk: JSONObject) throws(Refusal) {
                let algorithm = header["alg"]?.stringValue ?? ""
                guard jwk["kty"]?.stringValue == "EC", jwk["crv"]?.stringValue == "P-256" else {
                    throw .unsupportedKey(jwk["kty"]?.stringValue ?? "")
                }
                guard algorithm == "ES256" else { throw .algorithm(algorithm) }
                guard let x = jwk["x"]?.stringValue.flatMap(Base64URL.decode),
                    let y = jwk["y"]?.stringValue.flatMap(Base64URL.decode),
                    let key = try? P256.PublicKey(x: x, y: y)
                else { throw .unsupportedKey("EC") }
                guard let signature = try? P256.Signature(rawRepresentation: signature),
                    key.isValidSignature(signature, for: signingInput)
                else { throw .invalidSignature }
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
                    HMACSHA256.equal(Array(signed.utf8), Array(challenge.utf8))
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
