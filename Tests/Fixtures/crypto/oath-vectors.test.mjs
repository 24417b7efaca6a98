// The committed oath-vectors.json is what node:crypto computes now (see oath-vectors.mjs for the
// arrangement: the Swift side is checked against the same file).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { computeVectors, fixturePath, render, hotp, base32 } from './oath-vectors.mjs';

test('the committed OATH crypto fixture is exactly what node:crypto computes', () => {
  assert.equal(readFileSync(fixturePath, 'utf8'), render(computeVectors()),
    'regenerate with: node Tests/Fixtures/crypto/oath-vectors.mjs --write');
});

test('the fixture generator agrees with RFC 4226 Appendix D and RFC 4648 §10', () => {
  const secret = Buffer.from('12345678901234567890');
  assert.deepEqual([0, 1, 9].map((c) => hotp(secret, c, 6, 'SHA1')), ['755224', '287082', '520489']);
  assert.equal(base32(Buffer.from('foobar')), 'MZXW6YTBOI======');
  assert.equal(base32(Buffer.from('f')), 'MY======');
});
