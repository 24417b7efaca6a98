// The OATH crypto cross-check: node:crypto (OpenSSL) as an independent implementation.
//
// How the arrangement works: this script computes digests, HMACs, base32 and HOTP/TOTP codes
// for inputs of many lengths (every block boundary of SHA-1's 64 and SHA-512's 128 bytes, keys
// shorter and longer than a block) and writes them to oath-vectors.json beside it
// (`node Tests/Fixtures/crypto/oath-vectors.mjs --write`). The Swift test
// Tests/AuthBridgeCoreTests/NodeCryptoCrossCheckTests.swift checks AuthBridgeCore against that
// file, and oath-vectors.test.mjs (run by `make test` with the rest of the Node suite) checks that
// the committed file is exactly what node:crypto computes now, so the fixture cannot drift from
// its source or be edited by hand. Base32 has no node:crypto counterpart: it is computed here by a
// separate, bit-at-a-time implementation, so the Swift one is still checked against another.
import { createHash, createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/// Deterministic bytes (a 32-bit LCG): the inputs are fixed, only their digests come from OpenSSL.
function bytes(length, seed) {
  const out = Buffer.alloc(length);
  let state = (seed * 2654435761) >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32(buffer) {
  let bits = '';
  for (const byte of buffer) bits += byte.toString(2).padStart(8, '0');
  let out = '';
  for (let i = 0; i < bits.length; i += 5) out += ALPHABET[parseInt(bits.slice(i, i + 5).padEnd(5, '0'), 2)];
  return out.padEnd(Math.ceil(out.length / 8) * 8, '=');
}

const NODE_NAMES = { SHA1: 'sha1', SHA256: 'sha256', SHA512: 'sha512' };

/// RFC 4226 §5.3 on node:crypto's HMAC: dynamic truncation, then the low `digits` decimal digits.
export function hotp(secret, counter, digits, algorithm) {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac(NODE_NAMES[algorithm], secret).update(message).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  const binary = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 10 ** digits).padStart(digits, '0');
}

export function computeVectors() {
  const messageLengths = [0, 1, 3, 55, 56, 63, 64, 65, 111, 112, 119, 120, 127, 128, 129, 200, 1000];
  const hashes = [];
  for (const algorithm of ['sha1', 'sha256', 'sha384', 'sha512']) {
    for (const length of messageLengths) {
      const message = bytes(length, length + 1);
      hashes.push({ algorithm, message: message.toString('hex'), digest: createHash(algorithm).update(message).digest('hex') });
    }
  }
  const hmacs = [];
  for (const algorithm of ['sha1', 'sha256', 'sha384', 'sha512']) {
    for (const keyLength of [0, 1, 20, 32, 63, 64, 65, 127, 128, 129, 300]) {
      for (const messageLength of [0, 8, 64, 129]) {
        const key = bytes(keyLength, 1000 + keyLength);
        const message = bytes(messageLength, 2000 + messageLength);
        hmacs.push({
          algorithm, key: key.toString('hex'), message: message.toString('hex'),
          mac: createHmac(algorithm, key).update(message).digest('hex'),
        });
      }
    }
  }
  const base32Vectors = [];
  for (let length = 0; length <= 41; length++) {
    const data = bytes(length, 3000 + length);
    base32Vectors.push({ bytes: data.toString('hex'), text: base32(data) });
  }
  const hotpVectors = [];
  const totpVectors = [];
  for (const algorithm of ['SHA1', 'SHA256', 'SHA512']) {
    for (const secretLength of [10, 20, 32, 64]) {
      const secret = bytes(secretLength, 4000 + secretLength);
      for (const digits of [6, 8]) {
        for (const counter of [0, 1, 2, 255, 256, 65535, 4294967296]) {
          hotpVectors.push({ algorithm, secret: base32(secret), counter, digits, code: hotp(secret, counter, digits, algorithm) });
        }
        for (const [time, period] of [[0, 30], [59, 30], [1700000000, 30], [1700000000, 60], [2000000000, 45]]) {
          const step = Math.floor(time / period);
          totpVectors.push({ algorithm, secret: base32(secret), time, period, digits, code: hotp(secret, step, digits, algorithm) });
        }
      }
    }
  }
  return { hashes, hmacs, base32: base32Vectors, hotp: hotpVectors, totp: totpVectors };
}

export const fixturePath = fileURLToPath(new URL('./oath-vectors.json', import.meta.url));

export function render(vectors) {
  return JSON.stringify(vectors, null, 1) + '\n';
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--write')) {
  writeFileSync(fixturePath, render(computeVectors()));
}
