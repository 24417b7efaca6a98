// RNPingFido, RNPingDeviceProfile and RNPingDeviceId through the Node client's stand-ins, as the
// SDK's JS drives them: the journey waits at a node, the module answers its callback, JS calls next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { spawnBridge } from './index.mjs';

const passkeyJourney = fileURLToPath(new URL('../../../docs/examples/am-exports/mfa/Passkey.journey.json', import.meta.url));
const journeyConfig = { serverUrl: 'http://localhost:8080/am', realm: 'alpha' };
const credentials = { callbacks: [{ type: 'NameCallback', value: 'demo' }, { type: 'PasswordCallback', value: 'Ch4ng3it!' }] };

for (const flavor of ['rn-ios', 'rn-android']) {
  const ios = flavor === 'rn-ios';

  test(`${flavor}: a passkey registered, then signed in with, through RNPingFido's journey methods`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor, args: ['--journeys', passkeyJourney] });
    try {
      const registry = bridge.turboModuleRegistry();
      const journey = registry.get('RNPingJourney');
      const fido = registry.get('RNPingFido');
      assert.equal(bridge.nativeModules().RNPingFidoClassic, fido);
      const id = await journey.configureJourney(journeyConfig);
      await journey.start(id, 'PasskeyLogin');
      const registration = await journey.next(id, '', credentials);
      assert.deepEqual(registration.callbacks.map((c) => c.type), ['FidoRegistrationCallback', 'HiddenValueCallback']);
      assert.deepEqual(Object.keys(registration.callbacks[0]), ['type', 'raw']);
      await assert.rejects(fido.authenticateCredentialForJourney(id, {}, {}), (error) => error.code === 'FIDO_CALLBACK_NOT_FOUND'
        && error.userInfo.type === 'state_error'
        && error.message === `No active FIDO authentication callback found for journey ${id}${ios ? '' : ' at index 0'}.`);
      assert.deepEqual(await fido.registerCredentialForJourney(id, { deviceName: ' Ada phone ' }, {}), { type: 'success' });
      assert.equal((await journey.next(id, '', {})).type, 'SuccessNode');
      const devices = await bridge.emulator.devices('demo');
      assert.equal(devices.registered.webauthn[0].deviceName, 'Ada phone', JSON.stringify(devices.registered));
      assert.equal((await bridge.emulator.passkeys({ phone: 'app' })).passkeys.length, 1);

      await journey.logout(id);
      await journey.start(id, 'PasskeyLogin', { forceAuth: true });
      const authentication = await journey.next(id, '', credentials);
      assert.equal(authentication.callbacks[0].type, 'FidoAuthenticationCallback');
      assert.deepEqual(await fido.authenticateCredentialForJourney(id, { index: 0 }, {}), { type: 'success' });
      assert.equal((await journey.next(id, '', {})).type, 'SuccessNode');

      // The user dismisses the prompt: the callback writes NotAllowedError and the module rejects "cancelled".
      await journey.logout(id);
      await journey.start(id, 'PasskeyLogin', { forceAuth: true });
      await journey.next(id, '', credentials);
      await bridge.emulator.setBindingPrompts({ phone: 'app', answers: ['cancel'] });
      await assert.rejects(fido.authenticateCredentialForJourney(id, {}, {}), (error) => error.code === 'FIDO_AUTHENTICATE_CANCELLED'
        && error.userInfo.type === (ios ? 'fido_error' : 'internal_error'));
      assert.equal((await journey.next(id, '', {})).type, 'ErrorNode');
    } finally {
      await bridge.close();
    }
  });

  test(`${flavor}: standalone register and authenticate, device profile and device id`, async () => {
    const bridge = await spawnBridge({ seed: 7, clock: 'virtual', flavor });
    try {
      const registry = bridge.turboModuleRegistry();
      const fido = registry.get('RNPingFido');
      const challenge = ios ? 'AAECAwQFBgcICQoLDA0ODw==' : 'AAECAwQFBgcICQoLDA0ODw';
      const registered = await fido.registerCredential({
        challenge, rp: { id: 'example.com', name: 'Example' }, user: { id: ios ? 'ada' : 'YWRh', name: 'ada', displayName: 'Ada' },
        pubKeyCredParams: [{ type: 'public-key', alg: -7 }],
      }, {});
      if (ios) assert.equal(registered.rawId, '32 bytes');
      else assert.equal(registered.type, 'public-key');
      const asserted = await fido.authenticateCredential({ challenge, rpId: 'example.com' }, {});
      assert.equal(asserted.authenticatorAttachment, 'platform');
      await assert.rejects(fido.authenticateCredential({ challenge, rpId: 'other.example' }, {}),
        (error) => error.code === 'FIDO_AUTHENTICATE_ERROR');

      const deviceId = registry.get('RNPingDeviceId');
      const first = await deviceId.getDefaultDeviceId();
      assert.match(first, /^[0-9a-f]{64}$/);
      assert.equal(await bridge.nativeModules().RNPingDeviceIdClassic.getDefaultDeviceId(), first);

      const profile = registry.get('RNPingDeviceProfile');
      const collected = await profile.collectDeviceProfile(['platform', 'location', 'nonsense']);
      assert.deepEqual(Object.keys(collected), ['platform', 'location']);
      assert.equal(collected.platform.platform, ios ? 'iOS' : 'Android');
      assert.deepEqual(await profile.collectDeviceProfile([]), {});

      const journey = registry.get('RNPingJourney');
      const id = await journey.configureJourney(journeyConfig);
      const node = await journey.start(id, 'DeviceProfile');
      await assert.rejects(profile.collectDeviceProfileForJourney(id, ['platform']),
        (error) => error.code === 'DEVICE_PROFILE_CALLBACK_NOT_FOUND');
      const step = await journey.next(id, '', credentials);
      assert.equal(step.callbacks[0].type, 'DeviceProfileCallback', JSON.stringify(node));
      assert.deepEqual(await profile.collectDeviceProfileForJourney(id, ['platform', 'hardware', 'location']), { type: 'success' });
      assert.equal((await journey.next(id, '', {})).type, 'SuccessNode');
    } finally {
      await bridge.close();
    }
  });
}
