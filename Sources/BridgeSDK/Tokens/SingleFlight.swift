import AuthBridgeCore

/// One operation at a time: a caller arriving while it runs waits and gets that run's result
/// instead of starting another (AppAuth's `performActionWithFreshTokens` pending-actions list).
/// This is what keeps N concurrent callers near expiry down to one refresh at the server.
public final class SingleFlight<Value: Sendable, Failure: Error>: @unchecked Sendable {
    private let condition = Condition()
    private var running = false
    /// Counts finished runs; a waiter knows its run is over when the count moves.
    private var finished = 0
    private var lastResult: Result<Value, Failure>?

    public init() {}

    public func run(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
        condition.lock()
        if running {
            let awaited = finished
            while finished == awaited { condition.wait() }
            let result = lastResult!
            condition.unlock()
            return try result.get()
        }
        running = true
        condition.unlock()

        let result: Result<Value, Failure>
        do {
            result = .success(try body())
        } catch {
            result = .failure(error)
        }

        condition.lock()
        lastResult = result
        finished += 1
        running = false
        condition.broadcast()
        condition.unlock()
        return try result.get()
    }
}
