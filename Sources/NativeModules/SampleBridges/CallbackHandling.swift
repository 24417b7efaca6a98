/// How `next` copies the values JS set onto the native node (`--callbacks`).
public enum CallbackHandling: String, Sendable, CaseIterable {
    /// As the sample bridge of the flavor does, quirks included (docs/flavors.md).
    case sample
    /// As a bridge that handles every callback type of the iOS core list would: every input by
    /// position, nothing rejected, device profiles collected natively when JS leaves them empty.
    case complete
}
