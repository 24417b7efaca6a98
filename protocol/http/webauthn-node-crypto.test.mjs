// node:crypto as an independent authenticator against the WebAuthn nodes over the HTTP face:
// it encodes its own CBOR, COSE keys and authenticator data (W3C Web Authentication Level 2
// §6.1, §6.5, §8.2; RFC 8949; RFC 9052) and signs with OpenSSL, so the daemon's decoder and its
// ES256/RS256 verification are checked by code that shares nothing with them. Packed self
// attestation with each algorithm, packed full attestation with an OpenSSL-made certificate
// (skipped without the `openssl` command), then a sign-in; a wrong key is refused.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startDaemon } from './support.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const EXPORT = join(here, '..', '..', 'docs', 'examples', 'am-exports', 'mfa', 'Passkey.journey.json');
const ORIGIN = 'http://localhost:8080';
const hasOpenSSL = spawnSync('openssl', ['version']).status === 0;

// RFC 8949 §3: the few item kinds an authenticator writes, definite lengths, shortest heads.
function head(major, n) {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  if (n < 0x10000) return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
  const b = Buffer.alloc(5); b[0] = (major << 5) | 26; b.writeUInt32BE(n, 1); return b;
}
function cbor(value) {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') { const t = Buffer.from(value, 'utf8'); return Buffer.concat([head(3, t.length), t]); }
  if (Buffer.isBuffer(value)) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  // A Map keeps the caller's order (COSE labels are numbers).
  const entries = value instanceof Map ? [...value] : Object.entries(value);
  return Buffer.concat([head(5, entries.length), ...entries.flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const sha256 = (data) => createHash('sha256').update(data).digest();
const b64url = (buffer) => Buffer.from(buffer).toString('base64url');
const signedBytes = (buffer) => Array.from(new Int8Array(buffer.buffer, buffer.byteOffset, buffer.length)).join(',');

/** A key pair with its COSE form: ES256 (EC2 P-256) or RS256 (RSA 2048). */
function credentialKey(alg) {
  const { privateKey, publicKey } = alg === -7
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = publicKey.export({ format: 'jwk' });
  const cose = alg === -7
    ? new Map([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x, 'base64url')], [-3, Buffer.from(jwk.y, 'base64url')]])
    : new Map([[1, 3], [3, -257], [-1, Buffer.from(jwk.n, 'base64url')], [-2, Buffer.from(jwk.e, 'base64url')]]);
  return { privateKey, cose: cbor(cose), alg };
}

function authenticatorData({ flags, counter, credential }) {
  const count = Buffer.alloc(4); count.writeUInt32BE(counter);
  const parts = [sha256('localhost'), Buffer.from([flags]), count];
  if (credential) {
    const length = Buffer.alloc(2); length.writeUInt16BE(credential.id.length);
    parts.push(credential.aaguid, length, credential.id, credential.key.cose);
  }
  return Buffer.concat(parts);
}

const clientData = (type, meta) => Buffer.from(JSON.stringify({
  type, challenge: b64url(Buffer.from(meta.challenge, 'base64')), origin: ORIGIN, crossOrigin: false,
}));

let daemon;
before(async () => {
  daemon = await startDaemon(['--public-url', `${ORIGIN}/am`, '--journeys', EXPORT]);
});
after(() => daemon.close());

/** The PasskeyLogin journey up to its WebAuthn step, for `username`: [step, submit]. */
async function webAuthnStep(username) {
  const url = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=PasskeyLogin`;
  const post = async (body) => {
    const response = await fetch(url, { method: 'POST', body, headers: { 'Content-Type': 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1' } });
    return { status: response.status, body: await response.json() };
  };
  const first = (await post(undefined)).body;
  first.callbacks[0].input[0].value = username;
  first.callbacks[1].input[0].value = 'Passw0rd!';
  const step = (await post(JSON.stringify(first))).body;
  const meta = step.callbacks[0].output[0].value;
  const submit = (value) => {
    step.callbacks[1].input[0].value = value;
    return post(JSON.stringify(step));
  };
  return { meta, submit };
}

/** Registers with `attestation(authData, clientDataHash)` as the statement, then signs in. */
async function registerThenSignIn(username, key, attestation, aaguid = Buffer.alloc(16)) {
  await daemon.connection.request('emulator.addUser', { username, password: 'Passw0rd!' });
  const credential = { id: randomBytes(32), aaguid, key };
  const register = await webAuthnStep(username);
  assert.equal(register.meta._action, 'webauthn_registration');
  const createData = clientData('webauthn.create', register.meta);
  const authData = authenticatorData({ flags: 0x45, counter: 0, credential });
  const object = cbor(new Map([['fmt', 'packed'], ['attStmt', attestation(authData, sha256(createData))], ['authData', authData]]));
  const registered = await register.submit(`${createData}::${signedBytes(object)}::${b64url(credential.id)}`);
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  assert.ok(registered.body.tokenId);

  const assertion = async (signer) => {
    const step = await webAuthnStep(username);
    assert.equal(step.meta._action, 'webauthn_authentication');
    const getData = clientData('webauthn.get', step.meta);
    const data = authenticatorData({ flags: 0x05, counter: 1 });
    const signature = sign('sha256', Buffer.concat([data, sha256(getData)]), signer);
    return step.submit(`${getData}::${signedBytes(data)}::${signedBytes(signature)}::${b64url(credential.id)}`);
  };
  const signedIn = await assertion(key.privateKey);
  assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
  assert.ok(signedIn.body.tokenId);
  const other = credentialKey(key.alg).privateKey;
  assert.equal((await assertion(other)).status, 401, 'signed by another key');
}

const selfAttestation = (key) => (authData, hash) =>
  new Map([['alg', key.alg], ['sig', sign('sha256', Buffer.concat([authData, hash]), key.privateKey)]]);

test('ES256: packed self attestation, then an assertion node:crypto signed', async () => {
  const key = credentialKey(-7);
  await registerThenSignIn('es256', key, selfAttestation(key));
});

test('RS256: packed self attestation, then an assertion node:crypto signed', async () => {
  const key = credentialKey(-257);
  await registerThenSignIn('rs256', key, selfAttestation(key));
});

test('packed full attestation: an OpenSSL certificate naming the AAGUID signs it', { skip: hasOpenSSL ? false : 'no openssl command' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'authbridge-attestation-'));
  try {
    const aaguid = randomBytes(16);
    const made = spawnSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1',
      '-subj', '/C=US/O=AuthBridge/OU=Authenticator Attestation/CN=test', '-outform', 'DER',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.der'),
      '-addext', 'basicConstraints=critical,CA:FALSE',
      '-addext', `1.3.6.1.4.1.45724.1.1.4=DER:04:10:${aaguid.toString('hex').match(/../g).join(':')}`,
    ]);
    assert.equal(made.status, 0, made.stderr.toString());
    const attestationKey = createPrivateKey(readFileSync(join(dir, 'key.pem')));
    const certificate = readFileSync(join(dir, 'cert.der'));
    const key = credentialKey(-7);
    const full = (authData, hash) => new Map([
      ['alg', -7], ['sig', sign('sha256', Buffer.concat([authData, hash]), attestationKey)], ['x5c', [certificate]],
    ]);
    await registerThenSignIn('fullattest', key, full, aaguid);
    // The same certificate for an authenticator of another model: refused, nothing saved.
    await daemon.connection.request('emulator.addUser', { username: 'othermodel', password: 'Passw0rd!' });
    const register = await webAuthnStep('othermodel');
    const createData = clientData('webauthn.create', register.meta);
    const authData = authenticatorData({ flags: 0x45, counter: 0, credential: { id: randomBytes(32), aaguid: randomBytes(16), key } });
    const object = cbor(new Map([['fmt', 'packed'], ['attStmt', full(authData, sha256(createData))], ['authData', authData]]));
    assert.equal((await register.submit(`${createData}::${signedBytes(object)}::AAAA`)).status, 401);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
