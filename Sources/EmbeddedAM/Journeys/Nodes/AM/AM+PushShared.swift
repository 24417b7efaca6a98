import AuthBridgeCore

extension AM {
    /// What AM's push nodes share: the shared-state keys they pass each other
    /// (ForgeRock/am-external auth-nodes `push/PushNodeConstants.java`,
    /// `mfa/MultiFactorConstants.java`), the user's push skip setting, and the registration
    /// URI's pieces (`mfa/MultiFactorRegistrationUtilities.java`).
    enum Push {
        static let messageIdKey = "pushMessageId"
        static let challengeKey = "pushChallengeKey"
        static let deviceProfileKey = "pushDeviceProfile"
        static let registrationTimeoutKey = "pushRegistrationTimeout"
        static let numberChallengeKey = "pushNumberChallengeKey"
        static let messageExpirationKey = "pushMessageExpiration"
        static let mechanismUidKey = "pushMechanismUid"
        /// The sender keeps the message timeout (ms) under its JWT claim's name, `t`.
        static let timeToLiveKey = "t"
        static let recoveryCodesKey = "recoveryCodes"
        static let recoveryCodeDeviceNameKey = "recoveryCodeDeviceName"
        /// `AbstractMultiFactorNode.REGISTER_DEVICE_POLL_INTERVAL`, in ms.
        static let pollInterval = 2000
        /// The user attribute AM's push service keeps the skip setting in, with AM's
        /// `SkipSetting` values: absent (not set), "1" skippable (the user opted out), "2" not
        /// skippable (a device was registered).
        static let skipAttribute = "push2fa"

        enum Skip { case notSet, skippable, notSkippable }

        static func skip(_ user: DirectoryUser) -> Skip {
            switch user.attributes[skipAttribute].map({ JourneyValues.text($0) }) {
            case "1": .skippable
            case "2": .notSkippable
            default: .notSet
            }
        }

        /// Guava's `urlFragmentEscaper`, which AM applies to the issuer and account name of
        /// the URI's label: RFC 3986 fragment characters stay, the rest is percent-encoded.
        static func fragmentEscaped(_ text: String) -> String {
            let safe = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/?".utf8)
            let hex = Array("0123456789ABCDEF".utf8)
            var out: [UInt8] = []
            for byte in text.utf8 {
                if safe.contains(byte) {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                }
            }
            return String(decoding: out, as: UTF8.self)
        }

        /// AM's account-name mapping (`AbstractMultiFactorNode.UserAttributeToAccountNameMapping`)
        /// to the user attribute it reads; the username when the attribute is empty.
        static let accountNameAttributes = [
            "USERNAME": "_username", "COMMON_NAME": "cn", "EMAIL_ADDRESS": "mail", "EMPLOYEE_NUMBER": "employeeNumber",
            "GIVEN_NAME": "givenName", "LAST_NAME": "sn",
        ]

        static func accountName(_ user: DirectoryUser, attribute: String) -> String {
            var value = user.username
            if attribute != "_username", let found = user.attributes[attribute] {
                let text = found.arrayValue?.first.map { JourneyValues.text($0) } ?? JourneyValues.text(found)
                if !text.isEmpty { value = text }
            }
            return fragmentEscaped(value)
        }

        /// Every `token` in `text` replaced by `value` (the `{{user}}`-style placeholders of the
        /// push nodes' messages).
        static func replacing(_ token: String, in text: String, with value: String) -> String {
            let characters = Array(text)
            let pattern = Array(token)
            var out = ""
            var index = 0
            while index < characters.count {
                if !pattern.isEmpty, index + pattern.count <= characters.count,
                    Array(characters[index..<index + pattern.count]) == pattern
                {
                    out += value
                    index += pattern.count
                } else {
                    out.append(characters[index])
                    index += 1
                }
            }
            return out
        }

        /// Ten alphanumeric codes of ten characters (`MultiFactorDeviceProfileHelper.generateRecoveryCodes`,
    }
}
