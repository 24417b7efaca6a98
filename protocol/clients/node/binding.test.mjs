// RNPingBinding through the Node client as @ping-identity/rn-binding's JS drives it: bindForJourney on the
// journey's DeviceBindingCallback, the PIN asked on DeviceEventEmitter and answered with the fire-and-forget
// resolvePin, RNPingJourney.next submitting the JWS, then signForJourney signing in with the same key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createPublicKey, verify } from 'node:crypto';
import { spawnBridge } from './index.mjs';

const fixture = fileURLToPath(new URL('../../../Tests/Fixtures/binding/BindDevicePin.journey.json', import.meta.url));
const examples = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa/DeviceBinding.journey.json', import.meta.url));

/** What the SDK's index.tsx does with the prompt events: ask the app's collector, answer by request id. */
function listenForPins(bridge, binding, collector) {
  const asked = [];
  bridge.DeviceEventEmitter.addListener('RNPingBinding_PinRequired', async (event) => {
    asked.push(event);
    try {
      binding.resolvePin(event.requestId, await collector(event));
    } catch {
      binding.cancelPin(event.requestId);
    }
  });
  return asked;
}

async function journeyAt(journey, name, answers) {
  const id = await journey.configureJourney({ serverUrl: 'http://localhost:8080/am' });
  let node = await journey.start(id, name);
  for (const callbacks of answers) node = await journey.next(id, '', { callbacks });
  return { id, node };
}

for (const flavor of ['rn-ios', 'rn-android']) {
  test(`${flavor}: bind with an app PIN, then sign in with the same key`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', fixture, '--journeys', examples] });
    try {
      const { RNPingJourney: journey, RNPingBinding: binding } = bridge.pingModules();
      assert.equal(bridge.turboModuleRegistry().get('RNPingBinding'), binding);
      const asked = listenForPins(bridge, binding, async () => '2468');
      const config = { hasPinCollector: true, hasUserKeySelector: false };

      const bind = await journeyAt(journey, 'BindDevicePin', [
        [{ type: 'NameCallback', value: 'demo' }], [{ type: 'PasswordCallback', value: 'Ch4ng3it!' }]]);
      assert.deepEqual(bind.node.callbacks.map((c) => c.type), ['DeviceBindingCallback']);
      assert.deepEqual(await binding.bindForJourney(bind.id, { deviceName: 'Test phone' }, config), { type: 'success' });
      // ping-ios asks at key creation and again to open it; ping-android once.
      assert.equal(asked.length, flavor === 'rn-ios' ? 2 : 1);
      assert.deepEqual(Object.keys(asked[0]).sort(), ['description', 'requestId', 'subtitle', 'title']);
      assert.equal(asked[0].title, 'Protect this phone');
      assert.equal((await journey.next(bind.id, '', {})).type, 'SuccessNode');

      const keys = await binding.getAllKeys();
      assert.equal(keys.length, 1);
      assert.equal(keys[0].authenticationType, 'APPLICATION_PIN');
      const devices = await bridge.emulator.devices('demo');
      assert.equal(devices.registered.binding.length, 1, 'the server bound the key');

      asked.length = 0;
      const sign = await journeyAt(journey, 'DeviceLogin', [[{ type: 'NameCallback', value: 'demo' }]]);
      assert.deepEqual(sign.node.callbacks.map((c) => c.type), ['DeviceSigningVerifierCallback']);
      assert.deepEqual(await binding.signForJourney(sign.id, { claims: { amount: '100.00' } }, config), { type: 'success' });
      assert.equal(asked.length, 1);
      assert.equal((await journey.next(sign.id, '', {})).type, 'SuccessNode');

      // node:crypto checks the phone's key signs as its JWK says (RS512 on Android, ES256 on iOS).
      const [phoneKey] = (await bridge.emulator.bindingKeys({ phone: 'app' })).keys;
      assert.equal(phoneKey.publicKey.kty, flavor === 'rn-ios' ? 'EC' : 'RSA');
      const answered = await bridge.emulator.answerBinding({
        phone: 'app',
        callback: {
          type: 'DeviceSigningVerifierCallback',
          output: [{ name: 'userId', value: phoneKey.userId }, { name: 'challenge', value: 'node-check' }],
          input: [{ name: 'IDToken1jws', value: '' }, { name: 'IDToken1clientError', value: '' }],
        },
        // The PIN the key was made with is asked again by the SDK's own dialog: the emulated user knows it.
      });
      const jws = answered.input[0].value;
      const [header, payload, signature] = jws.split('.');
      const alg = JSON.parse(Buffer.from(header, 'base64url')).alg;
      assert.equal(alg, phoneKey.publicKey.alg);
      const { kid, use, alg: _alg, ...jwk } = phoneKey.publicKey;
      const publicKey = createPublicKey({ key: jwk, format: 'jwk' });
      const options = alg === 'ES256' ? { key: publicKey, dsaEncoding: 'ieee-p1363' } : publicKey;
      assert.ok(verify(alg === 'RS512' ? 'sha512' : 'sha256', Buffer.from(`${header}.${payload}`), options,
        Buffer.from(signature, 'base64url')), `${alg} verifies with node:crypto`);

      assert.equal(await binding.deleteKey(keys[0].userId, keys[0].id), null);
      assert.deepEqual(await binding.getAllKeys(), []);
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: a cancelled PIN rejects as the platform does and the node takes Abort`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', fixture] });
    try {
      const { RNPingJourney: journey, RNPingBinding: binding } = bridge.pingModules();
      listenForPins(bridge, binding, async () => { throw new Error('the user closed the dialog'); });
      const bind = await journeyAt(journey, 'BindDevicePin', [
        [{ type: 'NameCallback', value: 'demo' }], [{ type: 'PasswordCallback', value: 'Ch4ng3it!' }]]);
      await assert.rejects(binding.bindForJourney(bind.id, {}, { hasPinCollector: true }), (error) => {
        if (flavor === 'rn-ios') {
          assert.equal(error.code, 'BINDING_AUTH_FAILED');
          assert.equal(error.userInfo.type, 'binding_error');
        } else {
          assert.equal(error.code, 'BINDING_BIND_ERROR');
          assert.equal(error.userInfo.type, 'internal_error');
          assert.equal(error.message, 'PIN collection cancelled');
        }
        return true;
      });
      // The callback carries clientError Abort, which this journey wires to its failure.
      assert.equal((await journey.next(bind.id, '', {})).type, 'ErrorNode');
    } finally {
      await bridge.close();
    }
  });
}
