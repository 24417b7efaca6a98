/// Why the daemon cannot start: a state directory it cannot use, a journeys file it cannot
/// load. main prints the message and exits 1.
struct StartFailure: Error {
    let message: String
}
