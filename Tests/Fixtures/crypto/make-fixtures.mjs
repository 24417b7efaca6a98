// Writes node-crypto.json beside this file: keys, signatures, JWS tokens and X.509 certificates
// made by node:crypto (OpenSSL), an implementation independent of AuthBridgeCore's.
//
//   node Tests/Fixtures/crypto/make-fixtures.mjs      (ssh-keygen must be on PATH)
//
// Run once; the output is checked in. Two tests read it, and neither writes anything:
//   - Tests/AuthBridgeCoreTests/NodeCryptoFixtureTests.swift: the Swift code must verify every
//     valid entry, refuse every invalid one, read every key and certificate as OpenSSL did, and
//     sign the `deterministic` entries to exactly the stored bytes;
//   - protocol/crypto/crypto.test.mjs: node:crypto re-checks every entry, so the file cannot
//     drift into something only the Swift code believes.
// The deterministic (RFC 6979) ECDSA signatures cannot come from node:crypto, whose ECDSA nonces
// are random: `rfc6979Sign` below computes them from node's HMAC-SHA256, its P-256 point
// multiplication (ECDH) and BigInt arithmetic, checks them with crypto.verify before they are
// stored, and the Node test checks it on RFC 6979 §A.2.5's published vectors too.
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const order = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

const hex = (buffer) => Buffer.from(buffer).toString('hex');
const int32 = (value) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
const hmac = (key, ...parts) => crypto.createHmac('sha256', key).update(Buffer.concat(parts)).digest();

function power(base, exponent, modulus) {
  let result = 1n;
  base %= modulus;
  for (; exponent > 0n; exponent >>= 1n, base = (base * base) % modulus) {
    if (exponent & 1n) result = (result * base) % modulus;
  }
  return result;
}

/// ECDSA P-256 SHA-256 with RFC 6979 §3.2's nonce: r ‖ s (64 bytes). `privateKey`: 32 bytes.
export function rfc6979Sign(privateKey, message) {
  const d = BigInt('0x' + hex(privateKey));
  const e = BigInt('0x' + hex(crypto.createHash('sha256').update(message).digest())) % order;
  const seed = Buffer.concat([int32(d), int32(e)]);
  let v = Buffer.alloc(32, 1);
  let k = Buffer.alloc(32, 0);
  k = hmac(k, v, Buffer.from([0]), seed);
  v = hmac(k, v);
  k = hmac(k, v, Buffer.from([1]), seed);
  v = hmac(k, v);
  for (;;) {
    v = hmac(k, v);
    const nonce = BigInt('0x' + hex(v));
    if (nonce >= 1n && nonce < order) {
      const ecdh = crypto.createECDH('prime256v1');
      ecdh.setPrivateKey(int32(nonce));
      const r = BigInt('0x' + hex(ecdh.getPublicKey().subarray(1, 33))) % order;
      const s = (power(nonce, order - 2n, order) * (e + r * d)) % order;
      if (r !== 0n && s !== 0n) return Buffer.concat([int32(r), int32(s)]);
    }
    k = hmac(k, v, Buffer.from([0]));
    v = hmac(k, v);
  }
}

// --- A little DER, enough to build test certificates (X.690, RFC 5280 §4.1) ---
function tlv(tag, ...contents) {
  const body = Buffer.concat(contents);
  const n = body.length;
  const length = n < 0x80 ? [n] : n < 0x100 ? [0x81, n] : [0x82, n >> 8, n & 0xff];
  return Buffer.concat([Buffer.from([tag, ...length]), body]);
}
const seq = (...items) => tlv(0x30, ...items);
function oid(dotted) {
  const arcs = dotted.split('.').map(Number);
  const out = [];
  for (const arc of [arcs[0] * 40 + arcs[1], ...arcs.slice(2)]) {
    const chunk = [arc & 0x7f];
    for (let rest = arc >>> 7; rest > 0; rest >>>= 7) chunk.unshift((rest & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}
const attribute = (type, text) => tlv(0x31, seq(oid(type), tlv(0x0c, Buffer.from(text, 'utf8'))));
const names = { C: '2.5.4.6', O: '2.5.4.10', OU: '2.5.4.11', CN: '2.5.4.3' };
const name = (fields) => seq(...Object.entries(fields).map(([key, value]) => attribute(names[key], value)));
/// UTCTime before 2050, GeneralizedTime from then on (RFC 5280 §4.1.2.5).
function time(iso) {
  const digits = iso.replace(/[-:T]/g, '').slice(0, 14) + 'Z';
  return Number(iso.slice(0, 4)) < 2050 ? tlv(0x17, Buffer.from(digits.slice(2))) : tlv(0x18, Buffer.from(digits));
}
const extension = (id, critical, value) =>
  seq(oid(id), ...(critical ? [tlv(0x01, Buffer.from([0xff]))] : []), tlv(0x04, value));

const ecdsaWithSHA256 = '1.2.840.10045.4.3.2';
const sha256WithRSA = '1.2.840.113549.1.1.11';

/// A v3 certificate for `subjectKey` signed by `issuerKey` (a KeyObject pair each).
function certificate({ serial, issuer, subject, notBefore, notAfter, subjectKey, issuerKey, ca, aaguid }) {
  const algorithm = issuerKey.privateKey.asymmetricKeyType === 'ec' ? seq(oid(ecdsaWithSHA256)) : seq(oid(sha256WithRSA), tlv(0x05));
  const extensions = [extension('2.5.29.19', true, ca ? seq(tlv(0x01, Buffer.from([0xff]))) : seq())];
  if (aaguid) extensions.push(extension('1.3.6.1.4.1.45724.1.1.4', false, tlv(0x04, Buffer.from(aaguid, 'hex'))));
  const tbs = seq(
    tlv(0xa0, tlv(0x02, Buffer.from([2]))),
    tlv(0x02, Buffer.from([serial])),
    algorithm,
    name(issuer),
    seq(time(notBefore), time(notAfter)),
    name(subject),
    subjectKey.publicKey.export({ type: 'spki', format: 'der' }),
    tlv(0xa3, seq(...extensions)),
  );
  const signature = crypto.sign('sha256', tbs, issuerKey.privateKey);
  return seq(tbs, algorithm, tlv(0x03, Buffer.from([0]), signature));
}

/// What OpenSSL reads from a certificate: the Swift reader must agree.
export function describeCertificate(der) {
  const x509 = new crypto.X509Certificate(der);
  return {
    subject: x509.subject.split('\n'),
    issuer: x509.issuer.split('\n'),
    notBefore: Date.parse(x509.validFrom) / 1000,
    notAfter: Date.parse(x509.validTo) / 1000,
    ca: x509.ca,
    spki: hex(x509.publicKey.export({ type: 'spki', format: 'der' })),
  };
}

const ecKey = () => crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
const spki = (pair) => hex(pair.publicKey.export({ type: 'spki', format: 'der' }));
const jwk = (pair) => pair.publicKey.export({ format: 'jwk' });

/// An RSA signature whose encoded message is `em` (k bytes), made with the private key raw.
const rawRSA = (pair, em) => crypto.privateEncrypt({ key: pair.privateKey, padding: crypto.constants.RSA_NO_PADDING }, em);

function rsaEntries(pair, bits) {
  const message = Buffer.from(`RS256 with a ${bits}-bit key`);
  const digest = crypto.createHash('sha256').update(message).digest();
  const k = bits / 8;
  const prefix = Buffer.from('3031300d060960864801650304020105000420', 'hex');
  const sha1Prefix = Buffer.from('3021300906052b0e03021a05000414', 'hex');
  const em = (blockType, info, trailing = Buffer.alloc(0)) => {
    const t = Buffer.concat([info, trailing]);
    return Buffer.concat([Buffer.from([0, blockType]), Buffer.alloc(k - t.length - 3, 0xff), Buffer.from([0]), t]);
  };
  const good = crypto.sign('sha256', message, pair.privateKey);
  const entries = [
    { comment: 'crypto.sign', signature: good, valid: true },
    { comment: 'the same, built by hand (checks the forging below)', signature: rawRSA(pair, em(1, Buffer.concat([prefix, digest]))), valid: true },
    { comment: 'another message', signature: crypto.sign('sha256', Buffer.from('other'), pair.privateKey), valid: false },
    { comment: 'block type 2', signature: rawRSA(pair, em(2, Buffer.concat([prefix, digest]))), valid: false },
    { comment: 'SHA-1 DigestInfo around the SHA-256 digest', signature: rawRSA(pair, em(1, Buffer.concat([sha1Prefix, digest]))), valid: false },
    { comment: 'garbage after the digest (Bleichenbacher 2006)', signature: rawRSA(pair, em(1, Buffer.concat([prefix, digest]), Buffer.from('garbage'))), valid: false },
    { comment: 'DigestInfo without NULL parameters', signature: rawRSA(pair, em(1, Buffer.concat([Buffer.from('302f300b06096086480165030402010420', 'hex'), digest]))), valid: false },
  ];
  const { n, e } = jwk(pair);
  return entries.map((entry) => ({
    comment: entry.comment, bits, n, e, spki: spki(pair), message: hex(message), signature: hex(entry.signature), valid: entry.valid,
  }));
}

export function buildFixtures() {
  const p256 = [];
  for (let i = 0; i < 4; i++) {
    const pair = ecKey();
    for (const text of ['', 'abc', `message ${i}`]) {
      const message = Buffer.from(text);
      const der = crypto.sign('sha256', message, pair.privateKey);
      const raw = crypto.sign('sha256', message, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' });
      const { x, y } = jwk(pair);
      p256.push({ x, y, spki: spki(pair), message: hex(message), der: hex(der), raw: hex(raw), valid: true });
      const other = Buffer.from(text + '!');
      p256.push({ x, y, spki: spki(pair), message: hex(other), der: hex(der), raw: hex(raw), valid: false });
    }
  }
  const deterministic = [];
  for (let i = 1; i <= 6; i++) {
    const privateKey = crypto.createHash('sha256').update(`AuthBridge deterministic key ${i}`).digest();
    const message = Buffer.from(`device binding challenge ${i}`);
    const raw = rfc6979Sign(privateKey, message);
    const ecdh = crypto.createECDH('prime256v1');
    ecdh.setPrivateKey(privateKey);
    const point = ecdh.getPublicKey();
    const publicKey = crypto.createPublicKey({
      key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') },
      format: 'jwk',
    });
    if (!crypto.verify('sha256', message, { key: publicKey, dsaEncoding: 'ieee-p1363' }, raw)) throw new Error('rfc6979Sign');
    deterministic.push({ privateKey: hex(privateKey), publicKey: hex(point), message: hex(message), raw: hex(raw) });
  }
  const rsa = [
    ...rsaEntries(crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }), 2048),
    ...rsaEntries(crypto.generateKeyPairSync('rsa', { modulusLength: 3072 }), 3072),
    ...rsaEntries(crypto.generateKeyPairSync('rsa', { modulusLength: 4096 }), 4096),
    ...rsaEntries(crypto.generateKeyPairSync('rsa', { modulusLength: 2048, publicExponent: 3 }), 2048),
  ];
  // JWS tokens signed by node: ES256 (raw r ‖ s), RS256, and RS512 (as the ForgeRock Android SDK
  // signs device bindings).
  const jws = [];
  for (const [alg, pair] of [
    ['ES256', ecKey()],
    ['RS256', crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })],
    ['RS512', crypto.generateKeyPairSync('rsa', { modulusLength: 2048 })],
  ]) {
    const header = Buffer.from(JSON.stringify({ alg, kid: `node-${alg}` })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 'demo', nonce: 'n-0S6_WzA2Mj' })).toString('base64url');
    const input = Buffer.from(`${header}.${payload}`);
    const signature = alg === 'ES256'
      ? crypto.sign('sha256', input, { key: pair.privateKey, dsaEncoding: 'ieee-p1363' })
      : crypto.sign(alg === 'RS512' ? 'sha512' : 'sha256', input, pair.privateKey);
    jws.push({ alg, jwk: { ...jwk(pair), kid: `node-${alg}` }, token: `${input}.${signature.toString('base64url')}` });
  }
  // OpenSSH public keys from ssh-keygen (an authorized_keys file's lines, as AM's Amster JWT node
  // reads them), with a JWS node signs with the private key and the key as node exports it.
  const openssh = [];
  const dir = mkdtempSync(join(tmpdir(), 'authbridge-ssh-'));
  try {
    for (const [alg, args] of [['ES256', ['-t', 'ecdsa', '-b', '256']], ['RS256', ['-t', 'rsa', '-b', '2048']]]) {
      const file = join(dir, alg);
      const run = spawnSync('ssh-keygen', [...args, '-m', 'PEM', '-N', '', '-C', `amster-${alg}`, '-f', file]);
      if (run.status !== 0) throw new Error(`ssh-keygen: ${run.stderr}`);
      const privateKey = crypto.createPrivateKey(readFileSync(file));
      const line = readFileSync(`${file}.pub`, 'utf8').trim();
      const header = Buffer.from(JSON.stringify({ alg, typ: 'JWT' })).toString('base64url');
      const payload = Buffer.from(JSON.stringify({ sub: 'amadmin', nonce: '9c1f2d7e' })).toString('base64url');
      const input = Buffer.from(`${header}.${payload}`);
      const signature = crypto.sign('sha256', input, alg === 'ES256' ? { key: privateKey, dsaEncoding: 'ieee-p1363' } : privateKey);
      openssh.push({ alg, line, jwk: crypto.createPublicKey(privateKey).export({ format: 'jwk' }), token: `${input}.${signature.toString('base64url')}` });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // Certificates as WebAuthn `packed` attestation with x5c uses them (WebAuthn §8.2.1).
  const root = ecKey();
  const leaf = ecKey();
  const rsaRoot = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const rootName = { C: 'US', O: 'AuthBridge Test', CN: 'AuthBridge Test Root' };
  const rsaRootName = { O: 'AuthBridge Test', CN: 'AuthBridge Test RSA Root' };
  const leafName = { C: 'US', O: 'AuthBridge Test', OU: 'Authenticator Attestation', CN: 'AuthBridge Test Authenticator' };
  const aaguid = '6f2a8d3e4b1c4a5f9e7d2c1b0a998877';
  const made = {
    root: certificate({ serial: 1, issuer: rootName, subject: rootName, notBefore: '2024-01-01T00:00:00', notAfter: '2049-12-31T23:59:59', subjectKey: root, issuerKey: root, ca: true }),
    leaf: certificate({ serial: 2, issuer: rootName, subject: leafName, notBefore: '2025-01-01T00:00:00', notAfter: '2055-06-30T12:00:00', subjectKey: leaf, issuerKey: root, ca: false, aaguid }),
    rsaRoot: certificate({ serial: 3, issuer: rsaRootName, subject: rsaRootName, notBefore: '2024-01-01T00:00:00', notAfter: '2044-01-01T00:00:00', subjectKey: rsaRoot, issuerKey: rsaRoot, ca: true }),
    leafByRSA: certificate({ serial: 4, issuer: rsaRootName, subject: leafName, notBefore: '2025-01-01T00:00:00', notAfter: '2035-01-01T00:00:00', subjectKey: leaf, issuerKey: rsaRoot, ca: false }),
  };
  const issuers = { root: 'root', leaf: 'root', rsaRoot: 'rsaRoot', leafByRSA: 'rsaRoot' };
  const certificates = Object.entries(made).map(([label, der]) => ({
    label, signedBy: issuers[label], der: hex(der), aaguid: label === 'leaf' ? aaguid : null, ...describeCertificate(der),
  }));
  return { generator: 'Tests/Fixtures/crypto/make-fixtures.mjs', node: process.version, p256, deterministic, rsa, jws, openssh, certificates };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const path = new URL('node-crypto.json', import.meta.url);
  writeFileSync(path, JSON.stringify(buildFixtures(), null, 1) + '\n');
  console.log(`wrote ${fileURLToPath(path)}`);
}
