import AuthBridgeCore
import EmbeddedAM
import EmulatedDevice

/// What a test does with the emulated phones (`emulator.devices`, `emulator.resetDevice`,
/// `emulator.cloneDevice`); each kind of credential adds its own operations beside these
/// (`DeviceOperations+<Kind>.swift`).
extension World {
    /// A user's phones as a test may see them, and the devices the embedded server has on the
    /// user's profile (nil in remote mode or for a user it does not have).
    public func devices(of username: String) throws(EmulatorError) -> (phones: [Phone], registered: UserDevices?) {
        guard !username.isEmpty else { throw EmulatorError(param: "username", reason: "username must not be empty") }
        let registered = isRemote ? nil : embedded.users.find(username: username)?.devices
        if registered == nil, !isRemote, phones.phones(of: username).isEmpty {
            throw EmulatorError(param: "username", reason: "no user named \(username) and no phone of theirs")
        }
        return (phones.phones(of: username), registered)
    }

    /// A phone by id (`ada`, `ada#2`), or the user's first phone when only a username is given.
    /// The app's phone (`app`) is made if the app has not used it yet, so a test can set it up
    /// (queue its prompt answers) before the app's first call.
    public func phoneId(username: String?, phone: String?) throws(EmulatorError) -> String {
        if phone == Phones.appPhoneId { phones.appPhone() }
        if let phone {
            guard self.phones.phone(id: phone) != nil else {
                throw EmulatorError(
                    param: "phone", reason: "no phone \(phone) (emulator.devices lists a user's phones)")
            }
            return phone
        }
        guard let username, !username.isEmpty else {
            throw EmulatorError(param: "username", reason: "name the user (username) or the phone (phone)")
        }
        if !isRemote, !embedded.users.contains(username: username), phones.phones(of: username).isEmpty {
            throw EmulatorError(param: "username", reason: "no user named \(username)")
        }
        return phones.phone(of: username).id
    }

    /// Wipes a phone: its credentials, keys and notifications are gone; the server still has the
    /// devices it registered (as when a real phone is reset).
    public func resetPhone(id: String) -> Phone {
        _ = phones.reset(id: id)
        return phones.phone(id: id)!
    }

    /// A second phone for the same user, holding copies of what the first holds.
    public func clonePhone(id: String) -> Phone { phones.clone(id: id)! }
}
