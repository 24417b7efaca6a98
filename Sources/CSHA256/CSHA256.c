#include "CSHA256.h"

// FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the first
// 64 primes. Aligned for the 16-byte loads below.
static const uint32_t k[64] __attribute__((aligned(16))) = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

const uint32_t *ab_sha256_round_constants(void) { return k; }

#if defined(__x86_64__)

#include <cpuid.h>
#include <immintrin.h>

// CPUID leaf 7 EBX bit 29 (SHA); leaf 1 ECX bits 9 (SSSE3: the byte shuffle) and 19 (SSE4.1:
// the word blend). __get_cpuid_count answers 0 when the CPU has no leaf 7.
int ab_sha256_extensions_available(void) {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (!(ecx & (1u << 9)) || !(ecx & (1u << 19))) return 0;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    return (ebx & (1u << 29)) != 0;
}

// The target attribute lets this one function use the SHA and SSE4.1 instructions while the
// rest of the package builds for the baseline x86-64; it runs only after the CPUID check above.
__attribute__((target("sha,sse4.1,ssse3")))
void ab_sha256_compress_extensions(uint32_t state[8], const uint8_t *blocks, size_t count) {
    // sha256rnds2 keeps the state as two registers, ABEF and CDGH (A in the top lane); the
    // comments list lanes from the lowest.
    __m128i abcd = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)state), 0xB1);       // b a d c
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)(state + 4)), 0x1B); // h g f e
    __m128i abef = _mm_alignr_epi8(abcd, efgh, 8);  // f e b a
    __m128i cdgh = _mm_blend_epi16(efgh, abcd, 0xF0); // h g d c
    // Each 32-bit word of a block is big-endian.
    const __m128i byteswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);

    for (; count > 0; count--, blocks += 64) {
        const __m128i abef_start = abef, cdgh_start = cdgh;
        // The last 16 schedule words, four to a register: w[g % 4] holds W[4g … 4g+3].
        __m128i w[4];
        // Unrolled whole, the indices are constants and w stays in registers (a loop kept it in
        // memory: ~500 instructions a block instead of ~190).
#pragma clang loop unroll(full)
        for (int g = 0; g < 16; g++) {
            if (g < 4) {
                w[g] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(blocks + 16 * g)), byteswap);
            } else {
                // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]: msg1 adds σ0 to W[t-16],
                // the alignr brings W[t-7…t-4], msg2 adds σ1 (of its own first results for the
                // last two lanes).
                __m128i sum = _mm_sha256msg1_epu32(w[g % 4], w[(g + 1) % 4]);
                sum = _mm_add_epi32(sum, _mm_alignr_epi8(w[(g + 3) % 4], w[(g + 2) % 4], 4));
                w[g % 4] = _mm_sha256msg2_epu32(sum, w[(g + 3) % 4]);
            }
            // Four rounds: two per sha256rnds2, each taking K+W from the register's low lanes.
            // After a pair the registers swap roles, so after two they are back in place.
            __m128i kw = _mm_add_epi32(w[g % 4], _mm_load_si128((const __m128i *)(k + 4 * g)));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, kw);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(kw, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_start);
        cdgh = _mm_add_epi32(cdgh, cdgh_start);
    }

    __m128i abef_in_order = _mm_shuffle_epi32(abef, 0x1B); // a b e f
    __m128i ghcd = _mm_shuffle_epi32(cdgh, 0xB1);          // g h c d
    _mm_storeu_si128((__m128i *)state, _mm_blend_epi16(abef_in_order, ghcd, 0xF0));    // a b c d
    _mm_storeu_si128((__m128i *)(state + 4), _mm_alignr_epi8(ghcd, abef_in_order, 8)); // e f g h
}

#else

int ab_sha256_extensions_available(void) { return 0; }

// Never called: SHA256.swift asks ab_sha256_extensions_available first.
void ab_sha256_compress_extensions(uint32_t state[8], const uint8_t *blocks, size_t count) {
    (void)state; (void)blocks; (void)count;
    __builtin_trap();
}

#endif
