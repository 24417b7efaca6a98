#ifndef AUTHBRIDGE_CSHA256_H
#define AUTHBRIDGE_CSHA256_H

#include <stddef.h>
#include <stdint.h>

/// SHA-256's compression function on the CPU's SHA extensions (x86-64 SHA-NI), and the round
/// constants. AuthBridgeCore's SHA256 decides, once, whether to call it; its Swift rounds (on the
/// same constants) are the fallback everywhere else.

/// K[0…63], the round constants: one table for these rounds and the Swift ones.
const uint32_t *ab_sha256_round_constants(void);

/// 1 when this CPU can run ab_sha256_compress_extensions (SHA, SSSE3 and SSE4.1), else 0;
/// always 0 on other architectures.
int ab_sha256_extensions_available(void);

/// Compresses `count` 64-byte blocks into `state`: the eight working words a…h as numbers
/// (host order), as FIPS 180-4 §6.2.2 leaves them after each block. Only when available.
void ab_sha256_compress_extensions(uint32_t state[8], const uint8_t *blocks, size_t count);

#endif
