// node:crypto, an implementation independent of AuthBridgeCore's, re-checks every entry of
// Tests/Fixtures/crypto/node-crypto.json, which Tests/AuthBridgeCoreTests/NodeCryptoFixtureTests.swift
// checks the Swift code against (how the file is made and why: Tests/Fixtures/crypto/make-fixtures.mjs).
// Nothing here runs the daemon: the two sides meet only through the fixture file.
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { describeCertificate, rfc6979Sign } from '../../Tests/Fixtures/crypto/make-fixtures.mjs';

const fixtures = JSON.parse(readFileSync(new URL('../../Tests/Fixtures/crypto/node-crypto.json', import.meta.url)));
const bytes = (hex) => Buffer.from(hex, 'hex');
const spkiKey = (hex) => crypto.createPublicKey({ key: bytes(hex), format: 'der', type: 'spki' });

test('the RFC 6979 signer the deterministic entries come from gives RFC 6979 §A.2.5 (P-256, SHA-256)', () => {
  const key = bytes('C9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721');
  assert.equal(rfc6979Sign(key, Buffer.from('sample')).toString('hex').toUpperCase(),
    'EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716' + 'F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8');
  assert.equal(rfc6979Sign(key, Buffer.from('test')).toString('hex').toUpperCase(),
    'F1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367' + '019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083');
});

test('every deterministic P-256 signature is RFC 6979\'s and verifies with node:crypto', () => {
  assert.ok(fixtures.deterministic.length >= 5);
  for (const entry of fixtures.deterministic) {
    assert.equal(rfc6979Sign(bytes(entry.privateKey), bytes(entry.message)).toString('hex'), entry.raw);
    const point = bytes(entry.publicKey);
    const key = crypto.createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    assert.ok(crypto.verify('sha256', bytes(entry.message), { key, dsaEncoding: 'ieee-p1363' }, bytes(entry.raw)));
  }
});

test('P-256 entries: valid ones verify in DER and raw form, invalid ones in neither', () => {
  for (const entry of fixtures.p256) {
    const key = spkiKey(entry.spki);
    assert.deepEqual(key.export({ format: 'jwk' }), { kty: 'EC', crv: 'P-256', x: entry.x, y: entry.y });
    assert.equal(crypto.verify('sha256', bytes(entry.message), key, bytes(entry.der)), entry.valid);
    assert.equal(crypto.verify('sha256', bytes(entry.message), { key, dsaEncoding: 'ieee-p1363' }, bytes(entry.raw)), entry.valid);
  }
});

test('RSA entries: only the well-formed PKCS #1 v1.5 encodings verify', () => {
  const sizes = new Set(fixtures.rsa.map((entry) => `${entry.bits}/${entry.e}`));
  assert.deepEqual([...sizes].sort(), ['2048/AQAB', '2048/Aw', '3072/AQAB', '4096/AQAB']);
  for (const entry of fixtures.rsa) {
    const key = spkiKey(entry.spki);
    assert.equal(key.asymmetricKeyDetails.modulusLength, entry.bits);
    assert.equal(key.export({ format: 'jwk' }).n, entry.n);
    assert.equal(crypto.verify('sha256', bytes(entry.message), key, bytes(entry.signature)), entry.valid, entry.comment);
  }
});

test('JWS entries verify with their JWKs', () => {
  for (const entry of fixtures.jws) {
    const [header, payload, signature] = entry.token.split('.');
    const key = crypto.createPublicKey({ key: entry.jwk, format: 'jwk' });
    const options = entry.alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key;
    assert.equal(JSON.parse(Buffer.from(header, 'base64url')).alg, entry.alg);
    const hash = entry.alg === 'RS512' ? 'sha512' : 'sha256';
    assert.ok(crypto.verify(hash, Buffer.from(`${header}.${payload}`), options, Buffer.from(signature, 'base64url')));
  }
});

test('OpenSSH entries: ssh-keygen\'s line holds the key node exports, and the token verifies with it', () => {
  assert.deepEqual(fixtures.openssh.map((entry) => entry.alg), ['ES256', 'RS256']);
  for (const entry of fixtures.openssh) {
    const key = crypto.createPublicKey({ key: entry.jwk, format: 'jwk' });
    // RFC 4251 §5 strings in the base64 blob: the type, then e and n, or the curve and the point.
    const blob = Buffer.from(entry.line.split(' ')[1], 'base64');
    const fields = [];
    for (let at = 0; at < blob.length; at += 4 + blob.readUInt32BE(at)) fields.push(blob.subarray(at + 4, at + 4 + blob.readUInt32BE(at)));
    const unsigned = (field) => (field[0] === 0 ? field.subarray(1) : field).toString('base64url');
    if (entry.alg === 'RS256') {
      assert.deepEqual([fields[0].toString(), unsigned(fields[1]), unsigned(fields[2])], ['ssh-rsa', entry.jwk.e, entry.jwk.n]);
    } else {
      assert.deepEqual([fields[0].toString(), fields[1].toString()], ['ecdsa-sha2-nistp256', 'nistp256']);
      assert.deepEqual([fields[2].subarray(1, 33).toString('base64url'), fields[2].subarray(33).toString('base64url')], [entry.jwk.x, entry.jwk.y]);
    }
    const [header, payload, signature] = entry.token.split('.');
    const options = entry.alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key;
    const hash = entry.alg === 'RS512' ? 'sha512' : 'sha256';
    assert.ok(crypto.verify(hash, Buffer.from(`${header}.${payload}`), options, Buffer.from(signature, 'base64url')));
  }
});

test('certificates: OpenSSL reads what the fixture says, and each is signed by its issuer', () => {
  const byLabel = Object.fromEntries(fixtures.certificates.map((entry) => [entry.label, entry]));
  for (const entry of fixtures.certificates) {
    const { label, signedBy, der, aaguid, ...expected } = entry;
    assert.deepEqual(describeCertificate(bytes(der)), expected, label);
    const x509 = new crypto.X509Certificate(bytes(der));
    assert.ok(x509.verify(spkiKey(byLabel[signedBy].spki)), `${label} signed by ${signedBy}`);
    // The AAGUID extension is opaque to OpenSSL: its encoding (OID, extnValue OCTET STRING around an OCTET STRING of 16) is found whole.
    if (aaguid) assert.ok(der.includes('060b2b0601040182e51c01010404120410' + aaguid));
  }
});
