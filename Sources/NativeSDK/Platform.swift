/// The phone's platform: which native SDK answers (ForgeRock's or Ping's, for iOS or Android).
/// The two differ in messages, in how a server answer becomes a node, and in the device profile.
public enum Platform: String, CaseIterable, Sendable {
    case ios, android
}
