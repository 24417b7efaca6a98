import AuthBridgeCore

/// How KBA answers are kept: IDM stores them as salted hashes, never in clear, and so does the
/// embedded directory. Answers are compared case-insensitively, hence the lowercasing.
enum KbaAnswers {
    static func hashed(_ entry: JSONValue, random: RandomSource) -> JSONValue {
        let question = JourneyValues.text(entry["question"])
        let answer = JourneyValues.text(entry["answer"]).lowercased()
        let salt = random.bytes(16)
        let digest = SHA256.hash(salt + Array(answer.utf8))
        return [
            "customQuestion": .string(question),
            "answer": [
                "$crypto": [
                    "type": "salted-hash",
                    "value": [
                        "algorithm": "SHA-256", "salt": .string(Base64URL.encode(salt)),
                        "data": .string(Base64URL.encode(digest)),
                    ],
                ]
            ],
        ]
    }

    /// Whether `answer` is the one a stored entry was hashed from.
    static func matches(_ entry: JSONValue, answer: String) -> Bool {
        guard case .string(let saltText)? = entry["answer"]?["$crypto"]?["value"]?["salt"],
            case .string(let data)? = entry["answer"]?["$crypto"]?["value"]?["data"],
            let salt = Base64URL.decode(saltText), let digest = Base64URL.decode(data)
        else { return false }
        return HMACSHA256.equal(SHA256.hash(salt + Array(answer.lowercased().utf8)), digest)
    }
}
