// Device binding with node:crypto as the independent party: keys made and JWSs signed here
// (ES256 as the iOS SDK signs, RS512 as the Android SDK does, and RS256) bind and sign in through AM's REST face; the bound devices are listed,
// renamed and deleted over AM's device endpoints; and the emulated phone's own JWS verifies here.
import assert from 'node:assert/strict';
import { generateKeyPairSync, createPublicKey, sign, verify } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';
import { CookieJar, startDaemon } from './support.mjs';

const mfa = fileURLToPath(new URL('../../docs/examples/am-exports/mfa', import.meta.url));
const APP = 'com.example.reactnative.todo';
const HEADERS = { 'Content-Type': 'application/json', 'Accept-API-Version': 'protocol=1.0,resource=2.1' };
const b64 = (value) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** An app's key: the public JWK and a signer of compact JWSs. */
function appKey(alg, kid) {
  const pair = alg === 'ES256'
    ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
    : generateKeyPairSync('rsa', { modulusLength: 2048 });
  const jwk = { ...pair.publicKey.export({ format: 'jwk' }), kid, use: 'sig', alg };
  return {
    jwk,
    jws(claims, { embed }) {
      const header = { alg, kid, typ: 'JWS', ...(embed ? { jwk } : {}) };
      const input = `${b64(header)}.${b64(claims)}`;
      const options = alg === 'ES256' ? { key: pair.privateKey, dsaEncoding: 'ieee-p1363' } : pair.privateKey;
      const hash = alg === 'RS512' ? 'sha512' : 'sha256';
      return `${input}.${sign(hash, Buffer.from(input), options).toString('base64url')}`;
    },
  };
}

function claims(output, challenge) {
  const now = Math.floor(Date.now() / 1000);
  return { sub: output.userId, challenge, exp: now + 60, iat: now, nbf: now, iss: APP };
}

const outputs = (callback) => Object.fromEntries(callback.output.map((o) => [o.name, o.value]));
const setInput = (step, suffix, value) => {
  for (const input of step.callbacks[0].input) if (input.name.endsWith(suffix)) input.value = value;
};

async function journey(daemon, jar, name) {
  const url = `${daemon.json}/authenticate?authIndexType=service&authIndexValue=${name}`;
  const post = async (body) => (await jar.fetch(url, { method: 'POST', headers: HEADERS, body: body && JSON.stringify(body) })).json();
  return { post, first: await post() };
}

async function bind(daemon, key) {
  const jar = new CookieJar();
  const { post, first } = await journey(daemon, jar, 'BindDevice');
  first.callbacks[0].input[0].value = 'demo';
  const password = await post(first);
  password.callbacks[0].input[0].value = 'Ch4ng3it!';
  const step = await post(password);
  assert.equal(step.callbacks[0].type, 'DeviceBindingCallback');
  const output = outputs(step.callbacks[0]);
  setInput(step, 'jws', key.jws({ ...claims(output, output.challenge), platform: 'ios' }, { embed: true }));
  setInput(step, 'deviceName', `phone ${key.jwk.kid}`);
  setInput(step, 'deviceId', 'node-device');
  return { jar, result: await post(step) };
}

async function signIn(daemon, key) {
  const { post, first } = await journey(daemon, new CookieJar(), 'DeviceLogin');
  first.callbacks[0].input[0].value = 'demo';
  const step = await post(first);
  assert.equal(step.callbacks[0].type, 'DeviceSigningVerifierCallback');
  const output = outputs(step.callbacks[0]);
  setInput(step, 'jws', key.jws(claims(output, output.challenge), { embed: false }));
  return post(step);
}

test('keys made by node:crypto bind and sign in (ES256, RS256, RS512); the device endpoints list, rename and delete them', async () => {
  const daemon = await startDaemon(['--journeys', mfa]);
  try {
    const ec = appKey('ES256', 'ec-key');
    const rsa = appKey('RS256', 'rsa-key');
    const android = appKey('RS512', 'android-key');
    const { jar, result } = await bind(daemon, ec);
    assert.ok(result.tokenId, JSON.stringify(result));
    assert.ok((await bind(daemon, rsa)).result.tokenId);

    const devices = `${daemon.json}/users/demo/devices/2fa/binding`;
    const list = await (await jar.fetch(`${devices}?_queryFilter=true`)).json();
    assert.equal(list.resultCount, 2);
    assert.deepEqual(list.result.map((d) => [d.uuid, d.deviceName, d.deviceId, d.key.x ?? d.key.n]),
      [['ec-key', 'phone ec-key', 'node-device', ec.jwk.x], ['rsa-key', 'phone rsa-key', 'node-device', rsa.jwk.n]]);

    assert.ok((await signIn(daemon, ec)).tokenId);
    assert.ok((await signIn(daemon, rsa)).tokenId);

    const renamed = await jar.fetch(`${devices}/ec-key`, { method: 'PUT', headers: HEADERS, body: '{"deviceName":"Work phone"}' });
    assert.equal((await renamed.json()).deviceName, 'Work phone');
    assert.equal((await jar.fetch(`${devices}/rsa-key`, { method: 'DELETE' })).status, 200);
    const refused = await signIn(daemon, rsa);
    assert.equal(refused.callbacks[0].output[0].value, 'Key not found', 'the deleted device is gone');

    // The journey allows two devices: with one deleted, the Android SDK's RS512 binding fits.
    const androidBinding = (await bind(daemon, android)).result;
    assert.ok(androidBinding.tokenId, JSON.stringify(androidBinding));
    assert.ok((await signIn(daemon, android)).tokenId);
    assert.equal((await fetch(`${devices}?_queryFilter=true`)).status, 401, 'no session');
  } finally {
    daemon.close();
  }
});

test("the emulated phone's binding JWS verifies with node:crypto against the JWK it carries", async () => {
  const daemon = await startDaemon([]);
  try {
    const callback = {
      type: 'DeviceBindingCallback',
      output: [
        { name: 'userId', value: 'id=demo,ou=user,o=alpha,ou=services,ou=am-config' }, { name: 'username', value: 'demo' },
        { name: 'authenticationType', value: 'NONE' }, { name: 'challenge', value: 'c2lnbiBtZQ==' },
        { name: 'timeout', value: 60 },
      ],
      input: [{ name: 'IDToken1jws', value: '' }, { name: 'IDToken1deviceName', value: '' },
        { name: 'IDToken1deviceId', value: '' }, { name: 'IDToken1clientError', value: '' }],
    };
    const answered = await daemon.connection.request('emulator.answerBinding', { username: 'demo', callback });
    const jws = answered.input[0].value;
    const [header, payload, signature] = jws.split('.');
    const { jwk, alg, kid } = JSON.parse(Buffer.from(header, 'base64url'));
    assert.equal(alg, 'ES256');
    assert.equal(jwk.kid, kid);
    const key = createPublicKey({ key: jwk, format: 'jwk' });
    assert.ok(verify('sha256', Buffer.from(`${header}.${payload}`), { key, dsaEncoding: 'ieee-p1363' },
      Buffer.from(signature, 'base64url')));
    const claims = JSON.parse(Buffer.from(payload, 'base64url'));
    assert.equal(claims.challenge, 'c2lnbiBtZQ==');
    assert.equal(claims.sub, 'id=demo,ou=user,o=alpha,ou=services,ou=am-config');
    assert.equal(answered.input[3].value, '');
  } finally {
    daemon.close();
  }
});
