extension HTTPResponse {
    /// How the connection hands a response over. A handler's faults (docs/faults.md) use the
    /// others; the connection carries them out on its own thread, after the handler returned.
    public enum Delivery: Equatable, Sendable {
        /// Sent at once.
        case now
        /// Sent after `seconds`.
        case after(seconds: Double)
        /// Never sent: the connection closes.
        case drop
        /// Never sent: nothing for `seconds` (or until the client closes first), then the connection closes.
        case silence(seconds: Double)
        /// The head now, then the body as the stream gets it, until it or the client ends (the
        /// connection closes then).
        case stream(HTTPStream)
    }
}
