import AuthBridgeCore
import EmulatedDevice
import NativeSDK

/// `RNPingOath`, the successor SDK's OATH TurboModule (`oath/src/NativeRNPingOath.ts`; native
/// `oath/ios/RNPingOathCommon.swift`, `oath/android/…/RNPingOathCommon.kt`, over `PingOath`'s
/// `OathClient`). `create(config)` answers a handle naming a client; every other promise call
/// names one. Credentials live on the app's emulated phone (`Phones.appPhoneId`), the same
/// `OathCredential` an authenticator app keeps for the old bridges, with what the SDK's client
/// adds (`OathAppRecord`: its id, the URI's extra parameters, the lock); each client sees the
/// store it was made with (the OATH storage registration's keychain service or database).
/// `registerOathPolicyEvaluator`/`configureOathPolicyEvaluator` are synchronous on the device;
/// a host that must answer synchronously passes the id it picked as an extra last argument.
public final class RNPingOathModule: NativeModule {
    public let name = "RNPingOath"
    public let namespace = "RNPingOath"
    private let sdk: PingSDK
    private let storages: StorageRegistry
    private let loggers: PingLoggers
    private let device: DeviceAnswers
    private let rules: OathPlatformRules

    /// What `create` made a client of.
    struct Client {
        /// `OathAppRecord.store` of the credentials it sees.
        let store: String
        let policies: [OathPolicy]
        /// The logger it writes through (`PingLoggers.resolve`).
        let logger: String?
    }

    private var clients: [String: Client] = [:]
    /// Registered policy evaluators: the policies in order, and the logger id given.
    private var evaluators: [String: (policies: [OathPolicy], loggerId: String?)] = [:]

    public init(_ context: PingModuleContext) {
        sdk = context.sdk
        storages = context.storages
        loggers = context.loggers
        device = context.device
        rules = OathPlatformRules(platform: context.sdk.platform)
    }

    public var methods: [NativeMethod] {
        [
            NativeMethod("create") { args throws(BridgeError) in try self.create(args) },
            NativeMethod("addCredentialFromUri") { args throws(BridgeError) in
                let (client, uri) = try self.client(args, "addCredentialFromUri", "uri")
                return try self.add(uri: uri, client)
            },
            NativeMethod("getCredential") { args throws(BridgeError) in
                let (client, id) = try self.client(args, "getCredential", "credentialId")
                return self.credentials(of: client).first { $0.1.id == id }.map(self.rules.json) ?? .null
            },
            NativeMethod("getCredentials") { args throws(BridgeError) in
                let (client, _) = try self.client(args, "getCredentials", nil)
                self.evaluateLocks(client)
                return .array(self.credentials(of: client).map(self.rules.json))
            },
            NativeMethod("saveCredential") { args throws(BridgeError) in try self.save(args) },
            NativeMethod("deleteCredential") { args throws(BridgeError) in
                let (client, id) = try self.client(args, "deleteCredential", "credentialId")
                return .bool(
                    self.changePhone { phone in
                        let before = phone.oath.count
                        phone.oath.removeAll { $0.app?.id == id && $0.app?.store == client.store }
                        return phone.oath.count < before
                    })
            },
            NativeMethod("generateCode") { args throws(BridgeError) in
                let (client, id) = try self.client(args, "generateCode", "credentialId")
                return try self.generate(id, client)["code"] ?? .null
            },
            NativeMethod("generateCodeWithValidity") { args throws(BridgeError) in
                let (client, id) = try self.client(args, "generateCodeWithValidity", "credentialId")
                return try self.generate(id, client)
            },
            NativeMethod("close") { args throws(BridgeError) in
                let handle = try Arguments.string("close", args, name: "handle")
                self.clients[handle] = nil  // an unknown handle resolves too
                return .null
            },
            NativeMethod("registerOathPolicyEvaluator") { args throws(BridgeError) in
                try Arguments.count("registerOathPolicyEvaluator", args, ["config", "evaluatorId"], optional: 1)
                let config = try Arguments.reader(args, 0, "config")
                let id = try Arguments.chosenId(args, position: 1, sdk: self.sdk) { self.evaluators[$0] != nil }
                // Unknown kinds are skipped (the JS checks them first).
                let policies = (config["policies"].asStrings ?? []).compactMap(OathPolicy.init(rawValue:))
                self.evaluators[id] = (policies, config["loggerId"].asString)
                return .string(id)
            },
            NativeMethod("configureOathPolicyEvaluator") { args throws(BridgeError) in
                let id = try Arguments.string("configureOathPolicyEvaluator", args, name: "id")
                guard let evaluator = self.evaluators[id] else {
                    // iOS answers an empty descriptor; Android's `error(…)` is an IllegalStateException.
                    if self.sdk.platform == .ios { return ["policies": []] }
                    throw .rejection(
                        code: "IllegalStateException", message: "No OATH policy evaluator registered for id",
                        detail: nil)
                }
                var json: JSONObject = ["policies": .array(evaluator.policies.map { .string($0.rawValue) })]
                if let loggerId = evaluator.loggerId { json["loggerId"] = .string(loggerId) }
                return .object(json)
            },
        ]
    }

    // MARK: create

    private func create(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("create", args, ["config"])
        let config = try Arguments.reader(args, 0, "config")
        let logger = loggers.resolve(config["loggerId"].asString, platform: sdk.platform)
        var store = sdk.platform == .ios ? "keychain:com.pingidentity.oath" : "sqlite:(default)"
        if let storageId = config["storageId"].asString {
            guard let registered = storages.config(.oath, id: storageId) else {
                throw rules.unresolvable("storageId", storageId)
            }
            if sdk.platform == .ios, let service = registered["service"]?.stringValue {
                store = "keychain:\(service)"
            } else if let database = registered["databaseName"]?.stringValue {
                store = "sqlite:\(database)"
            }
        }
        var policies = OathPolicy.defaults
        if let evaluatorId = config["policyEvaluatorId"].asString {
            guard let evaluator = evaluators[evaluatorId] else {
                throw rules.unresolvable("policyEvaluatorId", evaluatorId)
            }
            policies = evaluator.policies
        }
        let handle = sdk.newId()
        clients[handle] = Client(store: store, policies: policies, logger: logger)
        loggers.log(logger, .info, "PingOath", "OATH client created")
        return .string(handle)
    }

    // MARK: credentials

    private func add(uri: String, _ client: Client) throws(BridgeError) -> JSONValue {
        loggers.log(client.logger, .debug, "PingOath", "Adding credential from URI")
        let credential: OathCredential
        let extras: OathCredential.URIExtras
        do {
            (credential, extras) = try OathCredential.parse(uri: uri)
        } catch {
            loggers.log(client.logger, .error, "PingOath", "Failed to parse OATH URI")
            throw rules.uriError(error, uri: uri)
        }
        if let refusal = rules.extraCheck(credential) { throw refusal }
        if let policy = OathPolicy.failing(client.policies, json: extras.policies) {
            loggers.log(client.logger, .warn, "PingOath", "OATH credential registration blocked by policy: \(policy)")
            throw rules.policyViolation(policy.rawValue)
        }
        let existing = credentials(of: client)
        if existing.contains(where: { $0.0.issuer == credential.issuer && $0.0.accountName == credential.accountName }),
            let duplicate = rules.duplicate(credential)
        {
            throw duplicate
        }
        let record = OathAppRecord(
            id: sdk.newId(), store: client.store, displayIssuer: credential.issuer,
            displayAccountName: credential.accountName, createdAt: (device.clock.now * 1000).rounded(.down),
            userId: extras.userId, resourceId: extras.resourceId, imageURL: extras.imageURL,
            backgroundColor: extras.backgroundColor, policies: extras.policies)
        var stored = credential
        stored.app = record
        changePhone { $0.oath.append(stored) }
        loggers.log(client.logger, .info, "PingOath", "Successfully added credential: \(credential.issuer)")
        return rules.json(stored, record)
    }

    private func save(_ args: [JSONValue]) throws(BridgeError) -> JSONValue {
        try Arguments.count("saveCredential", args, ["handle", "credential"])
        let client = try known(Arguments.string(args, 0, "handle"))
        let given = try Arguments.reader(args, 1, "credential")
        guard let issuer = given["issuer"].asString, !issuer.isEmpty else { throw rules.missingField("issuer") }
        guard let account = given["accountName"].asString, !account.isEmpty else {
            throw rules.missingField("accountName")
        }
        // Only the display names change; the stored secret and parameters stay (both bridges
        // fetch the stored credential and patch these two fields).
        guard let id = given["id"].asString, credentials(of: client).contains(where: { $0.1.id == id }) else {
            throw rules.saveOfUnknownCredential(given["id"].asString ?? "")
        }
        let saved = changePhone { phone -> OathCredential? in
            guard let index = phone.oath.firstIndex(where: { $0.app?.id == id && $0.app?.store == client.store })
            else { return nil }
            phone.oath[index].app?.displayIssuer = given["displayIssuer"].asString ?? issuer
            phone.oath[index].app?.displayAccountName = given["displayAccountName"].asString ?? account
            Self.evaluate(&phone.oath[index], client.policies)
            return phone.oath[index]
        }
        guard let saved, let app = saved.app else { throw rules.saveOfUnknownCredential(id) }
        return rules.json(saved, app)
    }

    /// A code, as `generateCodeWithValidity` answers it (`OathCodeInfo`): TOTP's time left in
    /// the period on the daemon's clock and its progress; HOTP's counter after the code.
    private func generate(_ id: String, _ client: Client) throws(BridgeError) -> JSONValue {
        guard let (credential, app) = credentials(of: client).first(where: { $0.1.id == id }) else {
            loggers.log(client.logger, .warn, "PingOath", "Credential not found for code generation: \(id)")
            throw rules.codeForUnknownCredential(id)
        }
        guard !app.isLocked else {
            loggers.log(client.logger, .warn, "PingOath", "Cannot generate code for locked credential: \(id)")
            throw rules.locked(id: id, policy: app.lockingPolicy)
        }
        let now = device.clock.now
        loggers.log(client.logger, .debug, "PingOath", "Generating OTP code for credential: \(id)")
        switch credential.kind {
        case .totp:
            let seconds = Int64(now.rounded(.down))
            let period = Int64(credential.period)
            let remaining = (seconds / period + 1) * period - seconds
            return [
                "code": .string(credential.code(at: now)), "timeRemaining": .int(remaining), "counter": .int(-1),
                "progress": .double(1 - Double(remaining) / Double(period)), "totalPeriod": .int(period),
            ]
        case .hotp:
            var shown = credential
            shown.counter = rules.hotpCodeCounter(stored: credential.counter)
            let code = shown.code(at: now)
            let next = credential.counter &+ 1
            changePhone { phone in
                if let index = phone.oath.firstIndex(where: { $0.app?.id == id && $0.app?.store == client.store }) {
                    phone.oath[index].counter = next
                }
            }
            return [
                "code": .string(code), "timeRemaining": .int(-1), "counter": .int(Int64(clamping: next)),
                "progress": .double(0), "totalPeriod": .int(0),
            ]
        }
    }

    /// `getCredentials` evaluates every credential's policies and stores the lock it comes to
    /// (`evaluateAndUpdateCredentialPolicies` on both): locked with the first failing policy,
    /// unlocked once all hold.
    private func evaluateLocks(_ client: Client) {
        changePhone { phone in
            for index in phone.oath.indices where phone.oath[index].app?.store == client.store {
                Self.evaluate(&phone.oath[index], client.policies)
            }
        }
    }

    private static func evaluate(_ credential: inout OathCredential, _ policies: [OathPolicy]) {
        guard var app = credential.app, let json = app.policies, !json.isEmpty else { return }
        if let failing = OathPolicy.failing(policies, json: json) {
            app.isLocked = true
            app.lockingPolicy = failing.rawValue
        } else {
            app.isLocked = false
            app.lockingPolicy = nil
        }
        credential.app = app
    }

    /// The client's credentials on the app's phone, oldest first.
    private func credentials(of client: Client) -> [(OathCredential, OathAppRecord)] {
        device.phones.appPhone().oath.compactMap { credential in
            credential.app.flatMap { $0.store == client.store ? (credential, $0) : nil }
        }
    }

    @discardableResult
    private func changePhone<T>(_ change: (inout Phone) -> T) -> T {
        var phone = device.phones.appPhone()
        let result = change(&phone)
        device.phones.update(id: phone.id) { $0 = phone }
        return result
    }

    // MARK: arguments

    private func known(_ handle: String) throws(BridgeError) -> Client {
        guard let client = clients[handle] else { throw rules.unknownHandle(handle) }
        return client
    }

    /// `(handle[, second])`: the client and the second string argument ("" when there is none).
    private func client(
        _ args: [JSONValue], _ method: String, _ second: String?
    ) throws(BridgeError) -> (Client, String) {
        try Arguments.count(method, args, ["handle"] + (second.map { [$0] } ?? []))
        let handle = try Arguments.string(args, 0, "handle")
        let value = try second.map { name throws(BridgeError) in try Arguments.string(args, 1, name) } ?? ""
        return (try known(handle), value)
    }
}
