import AuthBridgeCore
import Testing

/// The SHA extensions against the portable Swift rounds, and CPUID's answer against the
/// kernel's: the vectors (CryptoVectorTests) pin both to FIPS 180-4, these pin them to each other
/// on inputs no vector covers.
@Suite struct SHA256ImplementationTests {
    private static let hasExtensions = SHA256.Implementation.preferred == .shaExtensions
    private static let skipped = "this CPU has no SHA extensions (or is not x86-64): only the portable Swift rounds run"

    /// The kernel lists the flags CPUID reported; the hasher must have chosen by the same bits.
    @Test func choiceMatchesTheKernelsCPUFlags() throws {
        #if arch(x86_64) && os(Linux)
            let cpuinfo = try FileBytes.read(path: "/proc/cpuinfo").get()
            let flagsLine = String(decoding: cpuinfo, as: UTF8.self).split(separator: "\n").first {
                $0.hasPrefix("flags")
            }
            let flags = Set((flagsLine ?? "").split(separator: " ").map(String.init))
            let expected = flags.isSuperset(of: ["sha_ni", "ssse3", "sse4_1"])
            #expect(Self.hasExtensions == expected, "CPUID and /proc/cpuinfo disagree about sha_ni, ssse3, sse4_1")
        #elseif arch(x86_64)
            // An x86-64 Mac: no /proc to compare CPUID with; either choice can be right.
        #else
            #expect(!Self.hasExtensions)
        #endif
        #expect(SHA256.Implementation.available.contains(.portable))
    }

    /// Every length from 0 to 300 bytes (both sides of each padding boundary), ten random
    /// messages each, hashed whole and in two random pieces.
    @Test(.enabled(if: hasExtensions, Comment(rawValue: skipped)))
    func everyShortLengthAgrees() {
        let random = SeededRandomSource(seed: 0x5a256)
        for length in 0...300 {
            for _ in 0..<10 {
                let message = random.bytes(length)
                let portable = SHA256.hash(message, implementation: .portable)
                #expect(SHA256.hash(message, implementation: .shaExtensions) == portable, "length \(length)")
                let split = Int(random.uniform(UInt64(length) + 1))
                var hasher = SHA256(implementation: .shaExtensions)
                hasher.update(message[..<split])
                hasher.update(message[split...])
                #expect(hasher.finalize() == portable, "length \(length) split at \(split)")
            }
        }
    }

    /// Long runs of whole blocks compressed in one call, with odd tails.
    @Test(.enabled(if: hasExtensions, Comment(rawValue: skipped)))
    func largeMessagesAgree() {
        let random = SeededRandomSource(seed: 16)
        for length in [4096, 65_536 + 17, 1_000_003] {
            let message = random.bytes(length)
            #expect(
                SHA256.hash(message, implementation: .shaExtensions) == SHA256.hash(message, implementation: .portable),
                "length \(length)")
        }
    }

    /// HMAC keys shorter than, equal to and longer than a block, and PBKDF2 with few iterations.
    @Test(.enabled(if: hasExtensions, Comment(rawValue: skipped)))
    func hmacAndPBKDF2Agree() {
        let random = SeededRandomSource(seed: 4231)
        for keyLength in [0, 1, 20, 32, 63, 64, 65, 131] {
            let key = random.bytes(keyLength)
            let message = random.bytes(Int(random.uniform(200)))
            #expect(
                HMACSHA256.authenticate(message, key: key, implementation: .shaExtensions)
                    == HMACSHA256.authenticate(message, key: key, implementation: .portable),
                "key of \(keyLength) bytes")
            #expect(
                HMACSHA256.pbkdf2(
                    password: key, salt: message, iterations: 3, length: 80, implementation: .shaExtensions)
                    == HMACSHA256.pbkdf2(
                        password: key, salt: message, iterations: 3, length: 80, implementation: .portable))
        }
    }
}
