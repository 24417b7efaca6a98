/// Where generated values (ids, tokens, salts, codes) come from. Seeded for replayable output,
/// from the system otherwise.
public protocol RandomSource: AnyObject {
    func next() -> UInt64
}

/// The system's random source, read in blocks from /dev/urandom: a journey draws dozens of
/// values, and a getrandom(2) call per value was a sixth of the daemon's time in real mode.
public final class SystemRandomSource: RandomSource {
    private var block = [UInt64](repeating: 0, count: 64)
    private var index = 64
    private let device: Int32?

    public init() {
        if case .success(let fd) = FDIO.open("/dev/urandom", .readOnly) { device = fd } else { device = nil }
    }

    deinit { if let device { FDIO.close(device) } }

    public func next() -> UInt64 {
        if index == block.count {
            var filled = 0
            if let device, case .success(let count) = block.withUnsafeMutableBytes({ FDIO.read(device, into: $0) }) {
                filled = count
            }
            if filled != block.count * 8 {
                // A short read or an error: the standard library's generator, one value at a time.
                var generator = SystemRandomNumberGenerator()
                for i in block.indices { block[i] = generator.next() }
            }
            index = 0
        }
        defer { index += 1 }
        return block[index]
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, fast, and a fixed seed gives a fixed stream.
public final class SeededRandomSource: RandomSource {
    /// The whole generator: saved with the daemon's state so a restarted seeded daemon goes on
    /// with the stream instead of repeating ids it already handed out.
    public var state: UInt64

    public init(seed: UInt64) { state = seed }

    public func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension RandomSource {
    public func bytes(_ count: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count + 8)
        while out.count < count {
            var word = next()
            for _ in 0..<8 {
                out.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return Array(out.prefix(count))
    }

    /// Uniform in 0..<bound, without modulo bias.
    public func uniform(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0)
        let limit = UInt64.max - UInt64.max % bound
        while true {
            let value = next()
            if value < limit { return value % bound }
        }
    }

    public func string(length: Int, alphabet: String) -> String {
        let characters = Array(alphabet.utf8)
        precondition(characters.allSatisfy { $0 < 0x80 }, "ASCII alphabets only")
        let bound = UInt64(characters.count)
        return String(unsafeUninitializedCapacity: length) { buffer in
            for i in 0..<length { buffer[i] = characters[Int(uniform(bound))] }
            return length
        }
    }

    public func alphanumeric(_ length: Int) -> String {
        string(length: length, alphabet: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    }

    public func digits(_ length: Int) -> String { string(length: length, alphabet: "0123456789") }

    /// An RFC 4122 version-4 UUID string (upper case, as Foundation's `UUID().uuidString`).
    public func uuid() -> String {
        var b = bytes(16)
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        let digits: StaticString = "0123456789ABCDEF"
        return String(unsafeUninitializedCapacity: 36) { out in
            var o = 0
            for (i, byte) in b.enumerated() {
                if i == 4 || i == 6 || i == 8 || i == 10 {
                    out[o] = UInt8(ascii: "-")
                    o += 1
                }
                out[o] = digits.utf8Start[Int(byte >> 4)]
                out[o + 1] = digits.utf8Start[Int(byte & 0x0F)]
                o += 2
            }
            return o
        }
    }
}
