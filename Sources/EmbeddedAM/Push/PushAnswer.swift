import AuthBridgeCore

/// An authenticator's answer to a push message, checked as AM's predicates check it
/// (ForgeRock/am-external `openam-push-notification` `dispatch/predicates/SignedJwtVerificationPredicate.java`
/// and `PushMessageChallengeResponsePredicate.java`, `utils/HS256Helper.java`): the body's
/// `jwt` is an HS256 JWS under the registration's shared secret, and its `response` claim is
/// base64(HMAC-SHA256(secret, challenge)). Every JWT check of the push endpoint is here, on
/// Core's `JWS` with HS256 alone allowed.
struct PushAnswer: Equatable {
    let claims: JSONObject

    enum Refusal: Error, Equatable {
        /// No `jwt` string in the body, or not a compact JWS.
        case malformed
        /// `alg` other than HS256 (`none` included).
        case unsupportedAlgorithm
        case badSignature
        /// The `response` claim is missing or is not the challenge's HMAC.
        case wrongResponse
    }

    /// `challenge` is standard base64, as AM keeps it.
    static func check(_ body: JSONObject, secret: [UInt8], challenge: String) throws(Refusal) -> PushAnswer {
        guard case .string(let token)? = body["jwt"] else { throw .malformed }
        let verified: JWS.Verified
        do {
            verified = try JWS.verify(token, allowed: [.hs256], key: .hmac(HMACSHA256.Key(secret)))
        } catch .malformed {
            throw .malformed
        } catch .badSignature {
            throw .badSignature
        } catch {
            // `alg: none`, another algorithm, a critical header it does not know.
            throw .unsupportedAlgorithm
        }
        guard case .object(let claims)? = try? JSONParser.parse(verified.payload) else { throw .malformed }
        guard case .string(let response)? = claims["response"],
            ConstantTime.equal(response, expectedResponse(secret: secret, challenge: challenge))
        else { throw .wrongResponse }
        return PushAnswer(claims: claims)
    }

    /// What the authenticator must answer (AM's `HS256Helper.answerAsString`).
    static func expectedResponse(secret: [UInt8], challenge: String) -> String {
        Base64.encode(HMACSHA256.Key(secret).authenticate(Base64.decode(challenge) ?? []))
    }

    func string(_ claim: String) -> String? {
        if case .string(let value)? = claims[claim] { return value }
        return nil
    }
}
