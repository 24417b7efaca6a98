// The OATH flow as a test drives it through the client (docs/journeys.md, "MFA and devices"):
// Frodo's oath_registration export, the registration step's URI scanned into the emulated phone
// with emulator.scanOath, the code read with emulator.oathCode and typed by JS. Every code the
// daemon's phone shows is also computed here with node:crypto from the URI's secret (RFC 6238),
// an independent check of the whole chain: URI, base32, HMAC, truncation, the virtual clock.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';
import { totp } from './oath-reference.mjs';

const exports = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa', import.meta.url));

test('register an authenticator app, then sign in with its code', async () => {
  const bridge = await spawnBridge({
    seed: 7, clock: 'virtual',
    // The sample rn-ios bridge refuses the QR step's TextOutputCallbacks ("Received an unsupported
    // callback"); a bridge that handles every callback does not. It would also scan and type by
    // itself, but keeps what JS sends: here JS does both, as a test without it would.
    args: ['--journeys', exports, '--auth-service', 'oath_registration', '--callbacks', 'complete'],
  });
  try {
    const { FRAuthSampleBridge } = bridge.nativeModules();
    await FRAuthSampleBridge.start();
    const page = JSON.parse(await FRAuthSampleBridge.login());
    page.callbacks[0].input[0].value = 'demo';
    page.callbacks[1].input[0].value = 'Ch4ng3it!';
    const step = JSON.parse(await FRAuthSampleBridge.next(JSON.stringify(page)));
    const hidden = step.callbacks.find((c) => c.type === 'HiddenValueCallback');
    const uri = hidden.output.find((o) => o.name === 'value').value;
    assert.match(uri, /^otpauth:\/\/totp\/ForgeRock:demo\?secret=[A-Z2-7]+=*&period=30&digits=6&b=032b75/);

    const scanned = await bridge.emulator.scanOath({ username: 'demo', uri });
    assert.deepEqual(scanned, {
      id: 'ForgeRock:demo', issuer: 'ForgeRock', accountName: 'demo', type: 'totp', algorithm: 'SHA1', digits: 6,
      period: 30,
    });
    const verifier = JSON.parse(await FRAuthSampleBridge.next(JSON.stringify(step)));   // "Next"
    assert.deepEqual(verifier.callbacks.map((c) => c.type), ['NameCallback', 'ConfirmationCallback']);
    const { now } = await bridge.emulator.state();
    const { code } = await bridge.emulator.oathCode({ username: 'demo' });
    assert.equal(code, totp(uri, now));
    verifier.callbacks[0].input[0].value = code;
    const success = await FRAuthSampleBridge.next(JSON.stringify(verifier));
    assert.equal(success.type, 'LoginSuccess');
    await bridge.emulator.advanceClock(30);
    const later = await bridge.emulator.oathCode({ username: 'demo' });
    assert.equal(later.code, totp(uri, now + 30));
  } finally {
    await bridge.close();
  }
});

test('a URI the app cannot read is refused naming the parameter', async () => {
  const bridge = await spawnBridge({ seed: 7, clock: 'virtual' });
  try {
    await assert.rejects(
      bridge.emulator.scanOath({ username: 'demo', uri: 'otpauth://totp/ForgeRock:demo?secret=GE&digits=7' }),
      (error) => error.code === -32602 && error.data?.param === 'uri');
    await assert.rejects(bridge.emulator.oathCode({ username: 'demo' }), (error) => error.data?.param === 'id');
  } finally {
    await bridge.close();
  }
});
