import AuthBridgeCore

/// One node of a journey: a type with its settings, and the outcomes that name the next node.
/// The node types are those of AM trees (docs/journeys.md has each one's settings).
public struct JourneyNode: Sendable {
    public enum Kind: Sendable {
        /// Shows callbacks and waits for the client (AM's Page node). Outcome `next`.
        case page(PageSpec)
        /// Checks `username`/`password` against the directory. `true`/`false`.
        case dataStoreDecision(DataStoreDecision)
        /// Creates the user from `username`, `password` and `objectAttributes`. `created`/`failed`.
        case createObject
        /// Counts failed passes. `retry` below the limit, then `reject`.
        case retryLimit(RetryLimit)
        /// Locks (or unlocks) the user named in shared state. `next`.
        case accountLockout(AccountLockout)
        /// Makes a one-time code and "sends" it by e-mail or SMS. `next`.
        case otpGenerate(OTPGenerate)
        /// Asks for the one-time code. `true`/`false`/`expired`.
        case otpVerify(OTPVerify)
        /// A ChoiceCallback step whose outcomes are the choices.
        case choiceCollector(ChoiceCollector)
        /// Makes the client wait and resubmit. `done`, and `exit` when exitable.
        case pollingWait(PollingWait)
        /// Collects a device profile. `collected`/`invalid`.
        case deviceProfile(DeviceProfile)
        /// Suspends the journey and "e-mails" a resume link. `next` once resumed.
        case suspend(Suspend)
        /// Compares a shared-state value. `true`/`false`.
        case valueDecision(ValueDecision)
        /// Sets the message and details the journey's failure body will carry. `next`.
        case setFailureDetails(FailureDetails)
        case success
        case failure

        var outcomes: [String] {
            switch self {
            case .page, .accountLockout, .otpGenerate, .suspend, .setFailureDetails: return ["next"]
            case .dataStoreDecision, .valueDecision: return ["true", "false"]
            case .createObject: return ["created", "failed"]
            case .retryLimit: return ["retry", "reject"]
            case .otpVerify: return ["true", "false", "expired"]
            case .choiceCollector(let c): return c.choices
            case .pollingWait(let p): return p.exitable ? ["done", "exit"] : ["done"]
            case .deviceProfile: return ["collected", "invalid"]
            case .success, .failure: return []
            }
        }
    }

    public struct DataStoreDecision: Sendable {
        /// AM's realm "Login Failure Lockout Mode", applied where the password is checked:
        /// failures are counted on the user, the failure body warns before the lock.
        public var lockoutMode: LockoutMode?
    }

    public struct LockoutMode: Sendable {
        public var attempts: Int
        public var warnWhenRemaining: Int
        public var duration: Double?
    }

    public struct RetryLimit: Sendable {
        public var limit: Int
        /// AM's "Save Retry Limit to User" (on by default): the count outlives the journey.
        public var saveToUser: Bool
    }

    public struct AccountLockout: Sendable {
        public var lock: Bool
        /// nil: until unlocked; else seconds on the daemon clock.
        public var duration: Double?
    }

    public struct OTPGenerate: Sendable {
        public var length: Int
        public var validity: Double
        public var delivery: String
    }

    public struct OTPVerify: Sendable {
        public var prompt: String
        public var stage: String?
    }

    public struct ChoiceCollector: Sendable {
        public var prompt: String
        public var choices: [String]
        public var defaultChoice: Int
        public var stage: String?
    }

    public struct PollingWait: Sendable {
        public var seconds: Double
        public var message: String
        public var exitable: Bool
        public var exitMessage: String
        public var stage: String?
    }

    public struct DeviceProfile: Sendable {
        public var metadata: Bool
        public var location: Bool
        public var message: String
        public var stage: String?
    }

    public struct Suspend: Sendable {
        public var message: String
        public var duration: Double
        /// The objectAttributes member holding the address the link goes to.
        public var emailAttribute: String
    }

    public struct ValueDecision: Sendable {
        public var sharedState: String
        /// nil: true when the value is present and not empty, false or null.
        public var equals: JSONValue?
    }

    public struct FailureDetails: Sendable {
        public var message: String?
        public var details: JSONObject
    }

    public var id: String
    public var kind: Kind
    public var outcomes: [String: String]
    /// The step an interactive node shows; nil for nodes that decide or act without the client.
    public var page: PageSpec?

    init(id: String, json: JSONValue) throws(SettingsError) {
        var s = try Settings(json, what: "a node")
        guard let type = try s.string("type") else { throw SettingsError(reason: "\"type\" must name a node type") }
        self.id = id
        func stage() throws(SettingsError) -> String? { try s.string("stage") }
        switch type {
        case "page": kind = .page(try PageSpec(&s))
        case "dataStoreDecision":
            var lockout: LockoutMode?
            if let mode = try s.object("lockoutMode") {
                var m = try Settings(.object(mode), what: "\"lockoutMode\"")
                let attempts = try m.int("attempts", default: 5, in: 1...100)
                lockout = LockoutMode(
                    attempts: attempts, warnWhenRemaining: try m.int("warnWhenRemaining", default: 1, in: 0...attempts),
                    duration: try m.seconds("duration", default: nil))
                try m.finish()
            }
            kind = .dataStoreDecision(DataStoreDecision(lockoutMode: lockout))
        case "createObject": kind = .createObject
        case "retryLimit":
            kind = .retryLimit(RetryLimit(
                limit: try s.int("retryLimit", default: 3, in: 1...100), saveToUser: try s.bool("saveToUser", default: true)))
        case "accountLockout":
            let action = try s.string("lockAction", default: "LOCK")
            guard action == "LOCK" || action == "UNLOCK" else { throw SettingsError(reason: "\"lockAction\" must be LOCK or UNLOCK") }
            kind = .accountLockout(AccountLockout(lock: action == "LOCK", duration: try s.seconds("duration", default: nil)))
        case "otpGenerate":
            let delivery = try s.string("delivery", default: "email")
            guard delivery == "email" || delivery == "sms" else { throw SettingsError(reason: "\"delivery\" must be email or sms") }
            kind = .otpGenerate(OTPGenerate(
                length: try s.int("length", default: 6, in: 4...12), validity: try s.seconds("validity", default: 300)!,
                delivery: delivery))
        case "otpVerify":
            kind = .otpVerify(OTPVerify(prompt: try s.string("prompt", default: "One Time Password"), stage: try stage()))
        case "choiceCollector":
            guard let choices = try s.strings("choices", nonEmpty: true), Set(choices).count == choices.count else {
                throw SettingsError(reason: "\"choices\" is required: distinct strings, each also an outcome")
            }
            kind = .choiceCollector(ChoiceCollector(
                prompt: try s.requiredString("prompt"), choices: choices,
                defaultChoice: try s.int("defaultChoice", default: 0, in: 0...(choices.count - 1)), stage: try stage()))
        case "pollingWait":
            kind = .pollingWait(PollingWait(
                seconds: try s.seconds("seconds", default: 8)!, message: try s.string("message", default: "Waiting for response..."),
                exitable: try s.bool("exitable", default: false), exitMessage: try s.string("exitMessage", default: "Exit"),
                stage: try stage()))
        case "deviceProfile":
            kind = .deviceProfile(DeviceProfile(
                metadata: try s.bool("metadata", default: true), location: try s.bool("location", default: true),
                message: try s.string("message", default: "Collecting profile ..."), stage: try stage()))
        case "suspend":
            kind = .suspend(Suspend(
                message: try s.string(
                    "message", default: "An email has been sent to the address you entered. Click the link in that email to proceed."),
                duration: try s.seconds("duration", default: 300)!, emailAttribute: try s.string("emailAttribute", default: "mail")))
        case "valueDecision":
            kind = .valueDecision(ValueDecision(sharedState: try s.requiredString("sharedState"), equals: s.raw("equals")))
        case "setFailureDetails":
            kind = .setFailureDetails(FailureDetails(message: try s.string("message"), details: try s.object("details") ?? [:]))
        case "success": kind = .success
        case "failure": kind = .failure
        default:
            throw SettingsError(reason: "unknown node type \"\(type)\" (known: \(Self.types.joined(separator: ", ")))")
        }
        var outcomes: [String: String] = [:]
        if let map = try s.object("outcomes") {
            for member in map.members {
                guard case .string(let target) = member.value else { throw SettingsError(reason: "outcome \"\(member.key)\" must name a node") }
                guard kind.outcomes.contains(member.key) else {
                    let known = kind.outcomes.isEmpty ? "none" : kind.outcomes.joined(separator: ", ")
                    throw SettingsError(reason: "a \(type) node has no outcome \"\(member.key)\" (its outcomes: \(known))")
                }
                outcomes[member.key] = target
            }
        }
        self.outcomes = outcomes
        try s.finish()
        page = try Self.page(of: kind)
    }

    /// The callbacks AM's interactive nodes send, built when the journey loads so that a bad
    /// setting is reported with its node.
    private static func page(of kind: Kind) throws(SettingsError) -> PageSpec? {
        func spec(_ json: JSONObject) throws(SettingsError) -> CallbackSpec { try CallbackSpec(json: .object(json)) }
        switch kind {
        case .page(let page):
            return page
        case .otpVerify(let o):
            return PageSpec(stage: o.stage, callbacks: [
                try spec(["type": "PasswordCallback", "prompt": .string(o.prompt), "sharedState": "oneTimePassword"])
            ])
        case .choiceCollector(let c):
            return PageSpec(stage: c.stage, callbacks: [
                try spec([
                    "type": "ChoiceCallback", "prompt": .string(c.prompt), "choices": .array(c.choices.map { .string($0) }),
                    "defaultChoice": .int(Int64(c.defaultChoice)), "sharedState": "choice",
                ])
            ])
        case .pollingWait(let p):
            var callbacks = [
                try spec(["type": "PollingWaitCallback", "waitTime": .int(Int64((p.seconds * 1000).rounded())), "message": .string(p.message)])
            ]
            if p.exitable {
                // 100 is "no option chosen": a plain resubmit is a poll, choosing 0 is the exit.
                callbacks.append(try spec([
                    "type": "ConfirmationCallback", "prompt": "", "messageType": 0, "options": [.string(p.exitMessage)],
                    "optionType": -1, "defaultOption": 0, "value": 100, "sharedState": "pollingExit",
                ]))
            }
            return PageSpec(stage: p.stage, callbacks: callbacks)
        case .deviceProfile(let d):
            return PageSpec(stage: d.stage, callbacks: [
                try spec(["type": "DeviceProfileCallback", "metadata": .bool(d.metadata), "location": .bool(d.location), "message": .string(d.message)])
            ])
        case .suspend(let s):
            return PageSpec(stage: nil, callbacks: [try spec(["type": "SuspendedTextOutputCallback", "message": .string(s.message)])])
        default:
            return nil
        }
    }

    static let types = [
        "page", "dataStoreDecision", "createObject", "retryLimit", "accountLockout", "otpGenerate", "otpVerify",
        "choiceCollector", "pollingWait", "deviceProfile", "suspend", "valueDecision", "setFailureDetails", "success", "failure",
    ]
}

/// What AM's Page node shows in one step.
public struct PageSpec: Sendable {
    public var stage: String?
    public var header: String?
    public var description: String?
    public var callbacks: [CallbackSpec]

    init(stage: String?, header: String? = nil, description: String? = nil, callbacks: [CallbackSpec]) {
        self.stage = stage
        self.header = header
        self.description = description
        self.callbacks = callbacks
    }

    init(_ s: inout Settings) throws(SettingsError) {
        stage = try s.string("stage")
        header = try s.string("header")
        description = try s.string("description")
        guard let list = try s.array("callbacks"), !list.isEmpty else {
            throw SettingsError(reason: "a page needs a non-empty \"callbacks\" array")
        }
        var callbacks: [CallbackSpec] = []
        for (index, item) in list.enumerated() {
            do {
                let spec = try CallbackSpec(json: item)
                callbacks.append(spec)
                if spec.kind == .webAuthnRegistration || spec.kind == .webAuthnAuthentication {
                    callbacks.append(try CallbackSpec(json: ["type": "HiddenValueCallback", "id": "webAuthnOutcome"]))
                }
            } catch {
                throw SettingsError(reason: "callback \(index): \(error.reason)")
            }
        }
        self.callbacks = callbacks
    }
}
